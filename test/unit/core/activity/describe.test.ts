import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../electron/core/store/repositories/activity-canonical';
import { outcomeLine, summaryLine, summaryOf } from '../../../../electron/core/activity/describe';
import { detailOf } from '../../../../electron/core/activity/detail';
import type { ActivityRow } from '../../../../electron/core/store/repositories/activity';
import type { ActivityKind } from '../../../../shared/activity/kinds';

let seq = 0;
const row = (
  kind: ActivityKind,
  payload: unknown,
  extra: Partial<ActivityRow> = {},
): ActivityRow => ({
  seq: ++seq,
  profile_id: '11111111-1111-4111-8111-111111111111',
  chain_index: seq,
  at: '2026-11-20T14:03:00.000Z',
  kind,
  strategy_id: null,
  version_id: null,
  refers_to: null,
  payload: typeof payload === 'string' ? payload : canonicalJson(payload),
  previous_hash: '0'.repeat(64),
  hash: 'f'.repeat(64),
  ...extra,
});

describe('how an activity entry reads', () => {
  it('names a refusal with its status, and an unclear answer as unclear', () => {
    const refused = row('execution-answered', {
      profileName: 'Demo',
      result: 'rejected',
      error: { kind: 'validation', status: 422, message: 'Weights exceed 100.' },
    });
    expect(summaryLine(refused)).toBe('Service refused the execution: 422 Weights exceed 100.');
    expect(outcomeLine(refused)).toBe('Refused: 422 Weights exceed 100.');
    const facts = detailOf(refused).facts;
    expect(facts).toContainEqual({ label: 'HTTP status', value: '422' });
    expect(facts).toContainEqual({ label: 'Error kind', value: 'validation' });
  });

  it('says where the service differed from the prediction when a version ends', () => {
    const ended = row(
      'version-ended',
      {
        profileName: 'Demo',
        status: 'COMPLETE',
        orderCounts: { FILLED: 3, FAILED: 1 },
        filledValue: '12345.67',
        prediction: {
          targetState: 'stale',
          matched: false,
          differences: [
            {
              symbol: 'SPY',
              predicted: { action: 'IGNORE', oldWeight: '20' },
              service: { action: 'CHANGE', oldWeight: '40', weight: '20' },
            },
          ],
        },
      },
      { version_id: 'v1' },
    );
    expect(outcomeLine(ended)).toBe(
      'Complete: 3 orders filled, 12,345.67 filled value; the service differed from the prediction',
    );
    const { facts, tables } = detailOf(ended);
    expect(facts).toContainEqual({
      label: 'Compared with the prediction',
      value: 'The service’s positions differed from the prediction',
    });
    expect(tables).toEqual([
      {
        title: 'Differences from the prediction',
        columns: ['Symbol', 'Predicted', 'Service'],
        rows: [['SPY', 'IGNORE (old weight 20)', 'CHANGE (old weight 40, weight 20)']],
      },
    ]);
  });

  it('shows an execution’s latest outcome on its own line', () => {
    const sent = row('execution-sent', {
      profileName: 'Demo',
      strategyName: 'Core Equity',
      draftName: 'Tilt',
      requestBody: '{"data":{"positions":[{"symbol":"AAPL","weight":"100"}]}}',
    });
    expect(summaryOf(sent, null)).toMatchObject({
      summary: 'Executed “Core Equity” from draft “Tilt” (1 position)',
      outcome: 'Waiting for the answer',
    });
    const accepted = row('execution-answered', { result: 'accepted', status: 'PENDING' });
    expect(summaryOf(sent, accepted).outcome).toBe('Accepted as pending');
  });

  it('reads the entry referred to only for a name the entry does not hold itself', () => {
    const sent = row('execution-sent', { profileName: 'Demo', strategyName: 'Core Equity' });
    const answered = row('execution-answered', { result: 'accepted', status: 'PENDING' });
    const reads: number[] = [];
    const reading = (entry: ActivityRow) => () => {
      reads.push(entry.seq);
      return entry;
    };
    // A batch's execution names its strategy; the batch's review it refers to (every line) is
    // not read for it.
    const review = row('batch-reviewed', { profileName: 'Demo', lines: [] });
    expect(summaryOf(sent, null, reading(review)).strategyName).toBe('Core Equity');
    expect(reads).toEqual([]);
    // An answer takes its execution's name.
    expect(summaryOf(answered, null, reading(sent)).strategyName).toBe('Core Equity');
    expect(reads).toEqual([sent.seq]);
  });

  it('names a replaced secret without ever holding it', () => {
    const changed = row('profile-changed', {
      profileName: 'Demo',
      changes: [],
      secretReplaced: true,
    });
    expect(summaryLine(changed)).toBe('Profile changed: client secret replaced');
  });

  it('reads an entry whose payload was damaged without failing', () => {
    const damaged = row('version-deleted', '{"goneAtServiceAlready":Fal', { version_id: 'v9' });
    expect(summaryOf(damaged, null)).toMatchObject({
      profileName: '—',
      summary: 'Version v9 of a strategy deleted',
    });
    expect(detailOf(damaged).facts).toContainEqual({
      label: 'Content',
      value: 'Not read before deletion',
    });
  });

  it('says whether a delete removed the version or found it gone, and reads fields in words', () => {
    const version = { status: null, positions: [], orders: [] };
    const deleted = row('version-deleted', { goneAtServiceAlready: false, lastRead: version });
    const gone = row('version-deleted', { goneAtServiceAlready: true, lastRead: version });
    expect(outcomeLine(deleted)).toBe('Deleted at the service');
    expect(outcomeLine(gone)).toBe('Already gone at the service');
    expect(detailOf(gone).facts).toContainEqual({
      label: 'Status',
      value: 'None: no rebalance was started',
    });
    const moved = row('profile-changed', {
      changes: [{ field: 'baseUrl', from: 'https://a.example', to: 'https://b.example' }],
      secretReplaced: false,
      storedSecretToNewAddress: true,
    });
    expect(detailOf(moved).facts).toEqual(
      expect.arrayContaining([
        { label: 'Changed service address', value: 'https://a.example → https://b.example' },
        { label: 'Stored secret allowed to the new address', value: 'Yes' },
      ]),
    );
    const stale = row('execution-sent', { prediction: { targetState: 'stale', positions: [] } });
    expect(detailOf(stale).facts).toContainEqual({
      label: 'Known target',
      value: 'Stale: the holdings did not fit it',
    });
  });

  it('says what a deleted version held as read before deleting, or that it was deleted unseen', () => {
    const content = {
      status: 'SCHEDULED',
      scheduledFor: '2026-12-20T10:00:00.000000Z',
      positions: [{ symbol: 'CVX', oldWeight: '0', weight: '8', action: 'ADD' }],
      orders: [],
    };
    const read = row(
      'version-deleted',
      {
        strategyName: 'Dividend Growth',
        goneAtServiceAlready: false,
        shownBeforeDelete: 'read',
        readBeforeDelete: { ...content, readAt: '2026-11-20T14:02:59.000Z' },
        readError: null,
        lastRead: null,
      },
      { version_id: 'v1' },
    );
    expect(summaryLine(read)).toBe('Version v1 of “Dividend Growth” deleted');
    const shown = detailOf(read);
    expect(shown.facts).toEqual(
      expect.arrayContaining([
        {
          label: 'Content',
          value: 'Read from the service just before deleting: what the manager was shown',
        },
        { label: 'Read at', value: '2026-11-20T14:02:59.000Z' },
        { label: 'Scheduled for', value: '2026-12-20T10:00:00.000000Z' },
      ]),
    );
    expect(shown.tables[0]).toMatchObject({ title: 'Positions', rows: [['CVX', '0', '8', 'ADD']] });

    const unread = row(
      'version-deleted',
      {
        strategyName: 'Dividend Growth',
        goneAtServiceAlready: false,
        shownBeforeDelete: 'unread-acknowledged',
        readBeforeDelete: null,
        readError: {
          kind: 'bad-response',
          message: 'The service answered in a form the app does not understand.',
          status: 200,
          serviceMessage: null,
          triedAt: '2026-11-20T14:02:00.000Z',
        },
        lastRead: { ...content, syncedAt: '2026-11-19T08:00:00.000Z' },
      },
      { version_id: 'v2' },
    );
    expect(summaryLine(unread)).toBe(
      'Version v2 of “Dividend Growth” deleted unseen (it could not be read)',
    );
    const unseen = detailOf(unread);
    expect(unseen.facts).toEqual(
      expect.arrayContaining([
        {
          label: 'Content',
          value:
            'Not read: the app could not read the version, and the manager acknowledged deleting it unseen',
        },
        { label: 'Read error kind', value: 'bad-response' },
        { label: 'Last copy held here, read at', value: '2026-11-19T08:00:00.000Z' },
      ]),
    );
    expect(unseen.tables.map((t) => t.title)).toEqual(['Positions (last copy held here)']);
  });

  it('counts a large batch’s end in the app’s one format, thousands grouped', () => {
    const ended = row('batch-ended', {
      profileName: 'Many',
      batchId: '22222222-2222-4222-8222-222222222222',
      words: '1,000 sent: 1,000 COMPLETE',
      counts: { accepted: 1000, excluded: 0 },
      versionStatuses: { COMPLETE: 1000 },
    });
    const { facts } = detailOf(ended);
    expect(facts).toContainEqual({ label: 'Strategies sent', value: '1,000' });
    expect(facts).toContainEqual({ label: 'Versions COMPLETE', value: '1,000' });
  });
});
