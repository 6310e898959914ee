import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, type Store } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../../../support/store-fixtures';

const HASH = 'd'.repeat(64);

/** A reviewed batch of one ready strategy. */
function reviewedBatch(store: Store, id: string, profileId: string, strategyId: string) {
  const model = store.models.create({ name: `Model ${id.slice(0, 1)}`, description: '' });
  const revision = store.models.addRevision(model.id, [{ symbol: 'SPY', weight: '60' }], {
    note: '',
    hash: HASH,
    total: '60',
  });
  return store.batches.create(
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
}

describe('migration 017-batch-superseded', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 16 to 17: a superseded review names the newer one, only when expired', () => {
    expect(MIGRATIONS.find((m) => m.version === 17)?.name).toBe('batch-superseded');
    const path = folder.file();
    const old = openStore(path, { targetVersion: 16 });
    const { profileId, strategyId } = seedStrategy(old);
    const model = old.models.create({ name: 'Balanced', description: '' });
    const revision = old.models.addRevision(model.id, [{ symbol: 'SPY', weight: '60' }], {
      note: '',
      hash: HASH,
      total: '60',
    });
    old.close();
    // Expired at a restart, as schema 16 expired one: no newer review named.
    const before = { id: '11111111-1111-4111-8111-111111111111' };
    const raw = new Database(path);
    raw
      .prepare(
        `INSERT INTO batches (id, profile_id, model_id, revision_id, state, sells_whole, created_at)
         VALUES (?, ?, ?, ?, 'expired', '[]', '2026-01-01T00:00:00.000Z')`,
      )
      .run(before.id, profileId, model.id, revision.id);
    raw.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(17);
    expect(store.batches.get(before.id)).toMatchObject({ state: 'expired', supersededBy: null });
    const older = reviewedBatch(
      store,
      '22222222-2222-4222-8222-222222222222',
      profileId,
      strategyId,
    );
    const newer = reviewedBatch(
      store,
      '33333333-3333-4333-8333-333333333333',
      profileId,
      strategyId,
    );
    expect(store.batches.overlappingReviews(profileId, newer.id)).toEqual([older.id]);
    expect(store.batches.supersede(older.id, newer.id)).toBe(true);
    // Once: an expired (or executed) batch is not superseded again.
    expect(store.batches.supersede(older.id, newer.id)).toBe(false);
    expect(store.batches.get(older.id)).toMatchObject({ state: 'expired', supersededBy: newer.id });
    expect(store.batches.overlappingReviews(profileId, newer.id)).toEqual([]);
    store.close();

    // The schema refuses a superseded batch in another state, and one superseding itself.
    const db = new Database(path);
    expect(() =>
      db.prepare("UPDATE batches SET state = 'reviewed' WHERE id = ?").run(older.id),
    ).toThrow(/CHECK constraint/);
    expect(() =>
      db.prepare('UPDATE batches SET superseded_by = id WHERE id = ?').run(before.id),
    ).toThrow(/CHECK constraint/);
    db.close();
  });
});
