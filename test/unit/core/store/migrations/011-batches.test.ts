import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../../../support/store-fixtures';

const HASH = 'c'.repeat(64);

describe('migration 011-batches', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 10 to 11: batches and their items, each move conditional', () => {
    expect(MIGRATIONS.find((m) => m.version === 11)?.name).toBe('batches');
    const path = folder.file();
    const old = openStore(path, { targetVersion: 10 });
    const { profileId, strategyId } = seedStrategy(old);
    const model = old.models.create({ name: 'Balanced', description: '' });
    const revision = old.models.addRevision(model.id, [{ symbol: 'SPY', weight: '60' }], {
      note: '',
      hash: HASH,
      total: '60',
    });
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(11);
    const batch = store.batches.create(
      {
        id: '11111111-1111-4111-8111-111111111111',
        profileId,
        modelId: model.id,
        revisionId: revision.id,
        concurrency: 2,
        sellsWhole: '[]',
      },
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
    expect(batch).toMatchObject({ state: 'reviewed', concurrency: 2, stopAtFirstFailure: false });
    // Started once: a second start (another window) is refused.
    expect(store.batches.start(batch.id, { stopAtFirstFailure: true, concurrency: 1 })).toBe(true);
    expect(store.batches.start(batch.id, { stopAtFirstFailure: true, concurrency: 1 })).toBe(false);
    // An item is taken once: the move names the state it must be in.
    expect(store.batches.move(batch.id, 0, 'ready', 'sending')).toBe(true);
    expect(store.batches.move(batch.id, 0, 'ready', 'sending')).toBe(false);
    expect(
      store.batches.move(batch.id, 0, 'sending', 'accepted', { versionId: 'v1', journalId: 'j1' }),
    ).toBe(true);
    expect(store.batches.items(batch.id)[0]).toMatchObject({
      state: 'accepted',
      versionId: 'v1',
      journalId: 'j1',
    });
    expect(store.batches.itemOfVersion('v1')?.batchId).toBe(batch.id);
    expect(store.batches.sendingOver(batch.id, 'sent')).toBe(true);
    expect(store.batches.markEnded(batch.id, null)).toBe(true);
    expect(store.batches.markEnded(batch.id, null)).toBe(false);
    store.close();

    // The schema refuses what the app never writes.
    const db = new Database(path);
    expect(() =>
      db.prepare("UPDATE batch_items SET state = 'sent-twice' WHERE batch_id = ?").run(batch.id),
    ).toThrow(/CHECK constraint/);
    expect(() =>
      db.prepare("UPDATE batches SET state = 'paused' WHERE id = ?").run(batch.id),
    ).toThrow(/CHECK constraint/);
    db.close();
  });
});
