import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, type Store } from '../../../../../electron/core/store';
import {
  seedStrategy,
  strategyResponse,
  tempFolder,
  ts,
  versionResponse,
} from '../../../../support/store-fixtures';

describe('migration 007-unexecuted-versions', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes over the unexecuted versions of the history still in the way, not those an execution came after', () => {
    expect(MIGRATIONS.map((m) => m.version)).toContain(7);
    const path = folder.file();
    const old: Store = openStore(path, { targetVersion: 5 });
    const { profileId, strategyId } = seedStrategy(old);
    const other = strategyResponse();
    old.strategies.upsert(profileId, other);
    // In the way: created after the last execution known here.
    const executed = versionResponse(strategyId, {}, { status: 'COMPLETE', executed_at: ts(20) });
    const waiting = versionResponse(
      strategyId,
      {},
      { status: 'SCHEDULED', executed_at: null, inserted_at: ts(30), scheduled_for: ts(59) },
    );
    // Not in the way: the service executed a version after it was created.
    const passed = versionResponse(
      other.id,
      {},
      { status: null, executed_at: null, inserted_at: ts(10) },
    );
    const later = versionResponse(other.id, {}, { status: 'COMPLETE', executed_at: ts(20) });
    for (const v of [executed, waiting, passed, later])
      old.versions.upsert(profileId, v, { syncedAt: ts(40) });
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(7);
    expect(store.unexecuted.listForStrategy(profileId, strategyId)).toEqual([
      {
        profileId,
        strategyId,
        versionId: waiting.id,
        learnedFrom: 'imported',
        learnedAt: ts(40),
        scheduledFor: ts(59),
        insertedAt: ts(30),
        readAt: ts(40),
      },
    ]);
    expect(store.unexecuted.listForStrategy(profileId, other.id)).toEqual([]);
    store.close();
  });

  it('keeps a named version unread until read, only for a strategy held here, and drops it with the strategy', () => {
    const store = openStore(folder.file());
    const { profileId, strategyId } = seedStrategy(store);
    const named = '0b0e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    store.unexecuted.noteNamed(profileId, strategyId, named, ts(1));
    // A strategy this app does not hold is not noted (and no foreign-key failure).
    store.unexecuted.noteNamed(profileId, strategyResponse().id, named.replace('0b', '0c'), ts(1));
    expect(store.unexecuted.get(profileId, named)).toMatchObject({
      learnedFrom: 'named',
      readAt: null,
      scheduledFor: null,
    });
    const read = { id: named, strategy_id: strategyId, scheduled_for: ts(50), inserted_at: ts(0) };
    store.unexecuted.noteRead(profileId, read, 'read', ts(2));
    // Named again after the read: what the read said stays.
    store.unexecuted.noteNamed(profileId, strategyId, named, ts(3));
    expect(store.unexecuted.get(profileId, named)).toMatchObject({
      learnedFrom: 'named',
      learnedAt: ts(1),
      readAt: ts(2),
      scheduledFor: ts(50),
      insertedAt: ts(0),
    });
    const second = '1b0e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    store.unexecuted.noteRead(profileId, { ...read, id: second }, 'imported', ts(4));
    expect(store.unexecuted.listForStrategy(profileId, strategyId).map((r) => r.versionId)).toEqual(
      [named, second],
    );
    store.unexecuted.forget(profileId, named);
    expect(store.unexecuted.listForStrategy(profileId, strategyId).map((r) => r.versionId)).toEqual(
      [second],
    );
    store.strategies.remove(profileId, strategyId);
    expect(store.unexecuted.get(profileId, second)).toBeNull();
    store.close();
  });
});
