import { describe, expect, it } from 'vitest';
import { DeskError } from '../../../../shared/errors';
import type { JournalEntryView } from '../../../../shared/views';
import { Journal } from '../../../../renderer/src/lib/stores/journal.svelte';
import {
  OTHER_PROFILE,
  OTHER_STRATEGY,
  PROFILE,
  STRATEGY,
  deferred,
  fakeApi,
  versionDetail,
} from '../fake-api';

const entry = (more: Partial<JournalEntryView> = {}): JournalEntryView => ({
  id: 'a0000000-0000-4000-8000-000000000001',
  strategyId: STRATEGY,
  draftId: null,
  state: 'unknown',
  versionId: null,
  error: null,
  attempts: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...more,
});

describe('the journal store', () => {
  it('holds a strategy’s executions of unknown outcome, per profile, as the events say', () => {
    const journal = new Journal(fakeApi().api);
    journal.apply(PROFILE, [
      entry(),
      entry({ id: 'a0000000-0000-4000-8000-000000000002', state: 'pending' }),
      entry({ id: 'a0000000-0000-4000-8000-000000000003', strategyId: OTHER_STRATEGY }),
    ]);
    expect(journal.unknownFor(PROFILE, STRATEGY)).toEqual([entry()]);
    expect(journal.unknownFor(OTHER_PROFILE, STRATEGY)).toEqual([]);
  });

  it('reads a profile’s journal once, and drops a read an event overtook', async () => {
    const read = deferred<JournalEntryView[]>();
    const desk = fakeApi({ 'versions.journal': () => read.promise });
    const journal = new Journal(desk.api);
    const loading = journal.load(PROFILE);
    journal.apply(PROFILE, []);
    read.resolve([entry()]);
    await loading;
    expect(journal.unknownFor(PROFILE, STRATEGY)).toEqual([]);
    expect(desk.channels()).toEqual(['versions.journal']);
  });

  it('retries with the entry’s own key and answers the version; the journal waits for its event', async () => {
    const desk = fakeApi({ 'versions.retryExecution': () => ({ version: versionDetail() }) });
    const journal = new Journal(desk.api);
    journal.apply(PROFILE, [entry()]);
    const version = await journal.retry(entry());
    expect(version?.id).toBe(versionDetail().id);
    expect(desk.calls).toEqual([
      { channel: 'versions.retryExecution', input: { journalId: entry().id } },
    ]);
    expect(journal.busy).toBeNull();
  });

  it('says why a retry or a dismissal failed, on that strategy’s screen only', async () => {
    const desk = fakeApi({
      'versions.dismissExecution': () => {
        throw new DeskError({ kind: 'internal', message: 'The journal is locked.' });
      },
    });
    const journal = new Journal(desk.api);
    await journal.dismiss(entry());
    expect(journal.failureFor(STRATEGY)?.message).toBe('The journal is locked.');
    expect(journal.failureFor(OTHER_STRATEGY)).toBeNull();
  });
});
