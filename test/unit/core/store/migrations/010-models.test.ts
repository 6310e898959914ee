import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../../../support/store-fixtures';

const HASH = 'a'.repeat(64);

describe('migration 010-models', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 8 to 10: models, immutable revisions, one model per strategy', () => {
    expect(MIGRATIONS.find((m) => m.version === 10)?.name).toBe('models');
    const path = folder.file();
    const old = openStore(path, { targetVersion: 8 });
    const { profileId, strategyId } = seedStrategy(old);
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(10);
    const model = store.models.create({ name: 'Balanced', description: '60/40' });
    const first = store.models.addRevision(
      model.id,
      [
        { symbol: 'SPY', weight: '60' },
        { symbol: 'AGG', weight: '38.00' },
      ],
      { note: 'first', hash: HASH, total: '98' },
    );
    const second = store.models.addRevision(model.id, [{ symbol: 'SPY', weight: '98' }], {
      note: 'all equity',
      hash: 'b'.repeat(64),
      total: '98',
    });
    expect([first.number, second.number]).toEqual([1, 2]);
    expect(store.models.latest(model.id)?.id).toBe(second.id);
    expect(store.models.revisions(model.id).map((r) => r.number)).toEqual([2, 1]);
    // Decimals are TEXT, kept as written.
    expect(store.models.rows(first.id)).toEqual([
      { symbol: 'SPY', weight: '60' },
      { symbol: 'AGG', weight: '38.00' },
    ]);

    store.models.assign(profileId, [strategyId], model.id, null);
    expect(store.models.assignmentOf(profileId, strategyId)).toMatchObject({
      modelId: model.id,
      revisionId: null,
    });
    // At most one model per strategy: assigning again moves it (here: pinned to revision 1).
    const other = store.models.create({ name: 'Other', description: '' });
    store.models.assign(profileId, [strategyId], other.id, null);
    store.models.assign(profileId, [strategyId], model.id, first.id);
    expect(store.models.followers(model.id, profileId)).toHaveLength(1);
    expect(store.models.followers(other.id, profileId)).toEqual([]);
    expect(store.models.assignmentOf(profileId, strategyId)?.revisionId).toBe(first.id);
    expect(store.models.counts().followers.get(model.id)).toBe(1);

    // Removing the strategy from the app removes its assignment.
    store.strategies.remove(profileId, strategyId);
    expect(store.models.assignmentOf(profileId, strategyId)).toBeNull();
    store.close();

    // A revision and its rows refuse every change, whoever writes the file.
    const db = new Database(path);
    expect(() => db.prepare("UPDATE model_revisions SET note = 'edited'").run()).toThrow(
      /a model revision is immutable/,
    );
    expect(() => db.prepare("UPDATE model_revision_rows SET weight = '61'").run()).toThrow(
      /a model revision is immutable/,
    );
    expect(() =>
      db
        .prepare(
          "INSERT INTO model_revision_rows (revision_id, position, symbol, weight) VALUES (?, 9, 'SPY', '1')",
        )
        .run(first.id),
    ).toThrow(/UNIQUE/);
    db.close();
  });
});
