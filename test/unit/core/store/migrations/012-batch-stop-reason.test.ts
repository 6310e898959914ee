import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, type Store } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../../../support/store-fixtures';

const HASH = 'c'.repeat(64);

/** A batch of one ready strategy, started (sending). */
function sendingBatch(store: Store, id: string, profileId: string, strategyId: string) {
  const model = store.models.create({ name: `Model ${id.slice(0, 1)}`, description: '' });
  const revision = store.models.addRevision(model.id, [{ symbol: 'SPY', weight: '60' }], {
    note: '',
    hash: HASH,
    total: '60',
  });
  const batch = store.batches.create(
    { id, profileId, modelId: model.id, revisionId: revision.id, concurrency: 2, sellsWhole: '[]' },
    [
      {
        position: 0,
        strategyId,
        strategyName: 'Seeded',
        state: 'ready',
        exclusionKind: null,
        reason: null,
        rows: '[{"symbol":"SPY","weight":"60"}]',
        planKey: 'k',
        needsAcknowledgement: false,
        review: null,
        preview: null,
      },
    ],
  );
  expect(store.batches.start(batch.id, { stopAtFirstFailure: false, concurrency: 1 })).toBe(true);
  return batch;
}

describe('migration 012-batch-stop-reason', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 11 to 12: a stopped batch keeps why, older batches keep none', () => {
    expect(MIGRATIONS.find((m) => m.version === 12)?.name).toBe('batch-stop-reason');
    const path = folder.file();
    const old = openStore(path, { targetVersion: 11 });
    const { profileId, strategyId } = seedStrategy(old);
    const model = old.models.create({ name: 'Balanced', description: '' });
    const revision = old.models.addRevision(model.id, [{ symbol: 'SPY', weight: '60' }], {
      note: '',
      hash: HASH,
      total: '60',
    });
    old.close();
    // A batch stopped as schema 11 stopped one: its state alone.
    const before = { id: '11111111-1111-4111-8111-111111111111' };
    const raw = new Database(path);
    raw
      .prepare(
        `INSERT INTO batches (id, profile_id, model_id, revision_id, state, sells_whole, created_at)
         VALUES (?, ?, ?, ?, 'stopped', '[]', '2026-01-01T00:00:00.000Z')`,
      )
      .run(before.id, profileId, model.id, revision.id);
    raw.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(12);
    // Stopped before the app kept why: none, and its words stay as they were.
    expect(store.batches.get(before.id)).toMatchObject({ state: 'stopped', stopReason: null });
    const batch = sendingBatch(
      store,
      '22222222-2222-4222-8222-222222222222',
      profileId,
      strategyId,
    );
    expect(
      store.batches.sendingOver(batch.id, 'stopped', 'the app stopped while it was sending'),
    ).toBe(true);
    expect(store.batches.get(batch.id)).toMatchObject({
      state: 'stopped',
      stopReason: 'the app stopped while it was sending',
    });
    store.close();

    // The schema refuses a reason on a batch that did not stop, and an empty one.
    const db = new Database(path);
    expect(() =>
      db.prepare("UPDATE batches SET state = 'sent' WHERE id = ?").run(batch.id),
    ).toThrow(/CHECK constraint/);
    expect(() =>
      db.prepare("UPDATE batches SET stop_reason = '' WHERE id = ?").run(batch.id),
    ).toThrow(/CHECK constraint/);
    expect(() =>
      db.prepare("UPDATE batches SET stop_reason = 'why' WHERE id = ?").run(before.id),
    ).not.toThrow();
    db.close();
  });
});
