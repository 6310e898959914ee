import { describe, expect, it } from 'vitest';
import type { BatchItemView, BatchView } from '../../../../shared/batches/views';
import type { DeskEvent } from '../../../../shared/contract';
import { Batches, batchesOf } from '../../../../renderer/src/batches/batches.svelte';
import {
  PROFILE,
  STRATEGY,
  OTHER_STRATEGY,
  VERSION,
  fakeApi,
  settle,
  statusChanged,
} from '../fake-api';

const BATCH = '9a1b2c3d-3333-4c4d-8e5f-000000000001';
const OTHER_BATCH = '9a1b2c3d-3333-4c4d-8e5f-000000000002';
const OTHER_VERSION = '7c1d2e3f-2222-4b3c-8d4e-000000000002';

const item = (position: number, more: Partial<BatchItemView> = {}): BatchItemView => ({
  position,
  strategyId: position === 0 ? STRATEGY : OTHER_STRATEGY,
  strategyName: position === 0 ? 'Alpha' : 'Beta',
  state: 'sending',
  exclusion: null,
  reason: null,
  needsAcknowledgement: false,
  acknowledged: false,
  review: null,
  journalId: null,
  versionId: null,
  versionStatus: null,
  failedOrPartial: false,
  errorKind: null,
  ...more,
});

const summary = (more: Partial<BatchView> = {}) => ({
  id: BATCH,
  profileId: PROFILE,
  modelId: '5e6f7a8b-4444-4d5e-9f60-000000000001',
  modelName: 'Core model',
  revisionId: '5e6f7a8b-4444-4d5e-9f60-000000000002',
  revisionNumber: 2,
  revisionHash: 'a'.repeat(64),
  state: 'sending' as const,
  stopAtFirstFailure: false,
  concurrency: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: '2026-01-01T00:00:01.000Z',
  endedAt: null,
  counts: {
    excluded: 0,
    unticked: 0,
    ready: 0,
    sending: 2,
    accepted: 0,
    refused: 0,
    unknown: 0,
    skipped: 0,
    'not-sent': 0,
  },
  included: 2,
  sent: 0,
  pausedUntil: null,
  outcomes: [],
  words: 'sending: 0 of 2 sent',
  supersededBy: null,
  ...more,
});

const batch = (more: Partial<BatchView> = {}): BatchView => ({
  ...summary(more),
  sellsWhole: [],
  acknowledgementNeeded: [],
  totals: { quantities: [], orders: [] },
  items: [item(0), item(1)],
  ...more,
});

const progress = (
  more: Partial<BatchView>,
  moved: BatchItemView[],
  batchId = BATCH,
): DeskEvent => ({
  type: 'batch-progress',
  profileId: PROFILE,
  batchId,
  summary: summary(more),
  items: moved,
});

describe('the batches store', () => {
  it('moves the batch shown as its progress events say, the items that moved in each', () => {
    const batches = new Batches(fakeApi().api, () => undefined);
    batches.show(batch());
    const sending = [item(0, { state: 'sending' }), item(1, { state: 'sending' })];
    batches.apply(progress({ words: 'sending: 0 of 2 sent' }, sending));
    expect(batches.current?.items).toEqual(sending);
    const accepted = item(0, { state: 'accepted', versionId: VERSION, versionStatus: 'PENDING' });
    batches.apply(progress({ sent: 1, words: 'sending: 1 of 2 sent' }, [accepted]));
    expect(batches.current?.words).toBe('sending: 1 of 2 sent');
    expect(batches.current?.items).toEqual([accepted, sending[1]]);
    // A version's status change moves its item only.
    batches.apply(statusChanged({ versionId: VERSION, status: 'COMPLETE' }));
    expect(batches.current?.items.map((i) => i.versionStatus)).toEqual(['COMPLETE', null]);
    batches.apply(statusChanged({ versionId: OTHER_VERSION, status: 'FAILED' }));
    expect(batches.current?.items.map((i) => i.versionStatus)).toEqual(['COMPLETE', null]);
  });

  it('tells the end once, reads the ended batch again for its totals, and ignores another batch’s items', async () => {
    const told: string[] = [];
    const ended = batch({
      endedAt: '2026-01-01T00:05:00.000Z',
      words: '2 sent: 1 FAILED, 1 COMPLETE',
      state: 'sent',
    });
    const fake = fakeApi({ 'batches.get': () => ended });
    const batches = new Batches(fake.api, (title, body) => told.push(`${title}: ${body}`));
    batches.show(batch());
    // Another batch's progress: not shown, and its end is told (it ended while another is shown).
    batches.apply(
      progress(
        { id: OTHER_BATCH, endedAt: '2026-01-01T00:04:00.000Z', words: '1 sent: 1 COMPLETE' },
        [item(0)],
        OTHER_BATCH,
      ),
    );
    expect(batches.current?.id).toBe(BATCH);
    expect(batches.current?.items).toEqual([item(0), item(1)]);
    const end = {
      endedAt: '2026-01-01T00:05:00.000Z',
      words: '2 sent: 1 FAILED, 1 COMPLETE',
      state: 'sent' as const,
    };
    batches.apply(progress(end, []));
    batches.apply(progress(end, []));
    await settle();
    expect(told).toEqual([
      'Batch of “Core model” ended: 1 sent: 1 COMPLETE',
      'Batch of “Core model” ended: 2 sent: 1 FAILED, 1 COMPLETE',
    ]);
    expect(fake.channels()).toEqual(['batches.get']);
    expect(batches.current).toEqual(ended);
  });

  it('says nothing of a batch shown already ended, and is made once per session', () => {
    const told: string[] = [];
    const batches = new Batches(fakeApi().api, (title) => told.push(title));
    batches.show(batch({ endedAt: '2026-01-01T00:05:00.000Z' }));
    batches.apply(progress({ endedAt: '2026-01-01T00:05:00.000Z' }, []));
    expect(told).toEqual([]);
    const session = { api: fakeApi().api, batches: null as Batches | null };
    const first = batchesOf(session);
    expect(batchesOf(session)).toBe(first);
  });

  it('executes, cancels and previews the batch shown, showing what the desk answers', async () => {
    const fake = fakeApi({
      'batches.review': () => batch({ state: 'reviewed', startedAt: null }),
      'batches.execute': () => batch(),
      'batches.cancel': () => batch({ state: 'cancelled', words: 'cancelled: 0 of 2 sent' }),
      'batches.preview': () => ({ planKey: 'k' }),
    });
    const batches = new Batches(fake.api, () => undefined);
    await expect(batches.cancel()).rejects.toMatchObject({ kind: 'invalid-input' });
    const revisionId = summary().revisionId;
    await batches.review({ profileId: PROFILE, revisionId, strategyIds: [STRATEGY] });
    expect(batches.current?.state).toBe('reviewed');
    await batches.preview(STRATEGY);
    await batches.execute({
      unticked: [],
      acknowledged: [],
      acknowledgedTogether: false,
      stopAtFirstFailure: true,
    });
    expect(batches.current?.state).toBe('sending');
    await batches.cancel();
    expect(batches.current?.words).toBe('cancelled: 0 of 2 sent');
    expect(fake.calls.slice(1)).toEqual([
      { channel: 'batches.preview', input: { batchId: BATCH, strategyId: STRATEGY } },
      {
        channel: 'batches.execute',
        input: {
          batchId: BATCH,
          unticked: [],
          acknowledged: [],
          acknowledgedTogether: false,
          stopAtFirstFailure: true,
        },
      },
      { channel: 'batches.cancel', input: { batchId: BATCH } },
    ]);
  });
});
