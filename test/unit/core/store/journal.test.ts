import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../../electron/core/store';
import { openTemp, seedStrategy } from '../../../support/store-fixtures';

describe('execution journal repository', () => {
  let t: ReturnType<typeof openTemp>;
  let profileId: string;
  let strategyId: string;
  beforeEach(() => {
    t = openTemp();
    ({ profileId, strategyId } = seedStrategy(t.store));
  });
  afterEach(() => t.close());

  const body = JSON.stringify({ data: { positions: [{ symbol: 'AAPL', weight: '12.500000' }] } });

  it('walks an entry from pending through sent to accepted', () => {
    const entry = t.store.journal.create({
      profileId,
      strategyId,
      idempotencyKey: 'k-1',
      requestBody: body,
    });
    expect(entry).toMatchObject({
      state: 'pending',
      attempts: 0,
      draftId: null,
      requestBody: body,
      versionId: null,
    });
    expect(t.store.journal.markSent(entry.id)).toMatchObject({ state: 'sent', attempts: 1 });
    expect(
      t.store.journal.markAccepted(entry.id, { versionId: 'v-1', location: '/loc' }),
    ).toMatchObject({
      state: 'accepted',
      versionId: 'v-1',
      location: '/loc',
      error: null,
    });
    expect(t.store.journal.listInFlight()).toEqual([]);
  });

  it('lists the entries in flight (pending, sent, unknown) and counts retries', () => {
    const key = (n: number) => ({
      profileId,
      strategyId,
      idempotencyKey: `k-${n}`,
      requestBody: body,
    });
    // Another strategy's: one strategy has at most one execution in flight.
    const pending = t.store.journal.create({
      ...key(1),
      strategyId: '99999999-9999-4999-8999-999999999999',
    });
    const rejected = t.store.journal.create(key(3));
    t.store.journal.markSent(rejected.id);
    expect(t.store.journal.markRejected(rejected.id, 'Unknown symbols: ZZZ')).toMatchObject({
      state: 'rejected',
      error: 'Unknown symbols: ZZZ',
    });
    const unknown = t.store.journal.create(key(2));
    t.store.journal.markSent(unknown.id);
    t.store.journal.markUnknown(
      unknown.id,
      'The connection was reset before the service answered.',
    );
    expect(t.store.journal.listInFlight().map((e) => [e.id, e.state])).toEqual([
      [pending.id, 'pending'],
      [unknown.id, 'unknown'],
    ]);
    // A retry with the same key: sent again, attempts counted, the error cleared.
    expect(t.store.journal.markSent(unknown.id)).toMatchObject({
      state: 'sent',
      attempts: 2,
      error: null,
    });
    expect(t.store.journal.listForStrategy(profileId, strategyId)).toHaveLength(2);
  });

  it('refuses a reused idempotency key for the same profile, and an unknown entry', () => {
    t.store.journal.create({ profileId, strategyId, idempotencyKey: 'same', requestBody: body });
    expect(() =>
      t.store.journal.create({ profileId, strategyId, idempotencyKey: 'same', requestBody: body }),
    ).toThrow(/UNIQUE/);
    expect(() => t.store.journal.markSent('missing')).toThrow(
      'No execution journal entry missing.',
    );
  });

  it('keeps the entry when its draft is deleted', () => {
    const draft = t.store.drafts.create({ profileId, strategyId, name: 'D' });
    const entry = t.store.journal.create({
      profileId,
      strategyId,
      draftId: draft.id,
      idempotencyKey: 'k',
      requestBody: body,
    });
    t.store.drafts.delete(draft.id);
    expect(t.store.journal.get(entry.id)).toMatchObject({ draftId: null, state: 'pending' });
  });

  it('the entry is in the file (committed) as soon as create returns', () => {
    const entry = t.store.journal.create({
      profileId,
      strategyId,
      idempotencyKey: 'k',
      requestBody: body,
    });
    const reader = new Database(t.store.path, { readonly: true });
    expect(
      reader.prepare('SELECT state FROM execution_journal WHERE id = ?').get(entry.id),
    ).toEqual({ state: 'pending' });
    reader.close();
  });

  it('journals a new execution only when no other of the strategy is in flight, across connections', () => {
    const other = openStore(t.store.path);
    const input = (key: string) => ({
      profileId,
      strategyId,
      idempotencyKey: key,
      requestBody: body,
    });
    const first = t.store.journal.createExclusive(input('k-1'));
    expect(first).toMatchObject({ created: { state: 'pending', idempotencyKey: 'k-1' } });
    const firstId = 'created' in first ? first.created.id : '';
    // The second connection (another window or process on the same file) sees the first entry.
    expect(other.journal.createExclusive(input('k-2'))).toMatchObject({
      blocking: { id: firstId, state: 'pending' },
    });
    t.store.journal.markSent(firstId);
    t.store.journal.markUnknown(firstId, 'timeout');
    expect(t.store.journal.createExclusive(input('k-3'))).toMatchObject({
      blocking: { id: firstId, state: 'unknown' },
    });
    t.store.journal.markDismissed(firstId);
    expect(other.journal.createExclusive(input('k-4'))).toMatchObject({
      created: { idempotencyKey: 'k-4' },
    });
    // Nothing was written for the refused ones.
    expect(
      t.store.journal.listForStrategy(profileId, strategyId).map((e) => e.idempotencyKey),
    ).toEqual(['k-4', 'k-1']);
    other.close();
  });

  it("claims a draft's execution once per version it became, across connections", () => {
    const other = openStore(t.store.path);
    const draft = t.store.drafts.create({ profileId, strategyId, name: 'D', rows: [] });
    const input = (key: string, againAfter: string | null = null) => ({
      profileId,
      strategyId,
      draftId: draft.id,
      againAfter,
      idempotencyKey: key,
      requestBody: body,
    });
    const first = t.store.journal.createExclusive(input('k-1'));
    const firstId = 'created' in first ? first.created.id : '';
    t.store.journal.markSent(firstId);
    t.store.journal.markAccepted(firstId, { versionId: 'v-1', location: null });
    expect(t.store.journal.executedVersionOf(draft.id)).toBe('v-1');
    // Not in flight any more, but the draft became v-1: only "Execute again" after v-1 is claimed.
    expect(other.journal.createExclusive(input('k-2'))).toEqual({ executedAs: 'v-1' });
    expect(other.journal.createExclusive(input('k-3', 'v-0'))).toEqual({ executedAs: 'v-1' });
    const again = other.journal.createExclusive(input('k-4', 'v-1'));
    expect(again).toMatchObject({ created: { idempotencyKey: 'k-4', draftId: draft.id } });
    const againId = 'created' in again ? again.created.id : '';
    other.journal.markSent(againId);
    // A retry from another connection finds it sent already: it is not sent twice.
    expect(t.store.journal.markSent(againId)).toBeNull();
    other.journal.markRejected(againId, 'Unknown symbols: ZZZ');
    // A refusal leaves the claim free, and the draft still what it became.
    expect(t.store.journal.executedVersionOf(draft.id)).toBe('v-1');
    expect(t.store.journal.createExclusive(input('k-5', 'v-1'))).toMatchObject({
      created: { idempotencyKey: 'k-5' },
    });
    other.close();
  });
});
