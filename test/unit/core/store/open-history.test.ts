import Database from 'better-sqlite3';
import { closeSync, openSync, writeSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, StoreError } from '../../../../electron/core/store';
import { seedStrategy, tempFolder, versionResponse } from '../../../support/store-fixtures';

/** Damages the first page of a table's b-tree, as a failing disk might. */
function damageTable(path: string, table: string): void {
  const db = new Database(path);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const { rootpage } = db
    .prepare('SELECT rootpage FROM sqlite_master WHERE name = ?')
    .get(table) as { rootpage: number };
  db.close();
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.from([0xff, 0xff, 0xff, 0xff]), 0, 4, (rootpage - 1) * pageSize);
  closeSync(fd);
}

/**
 * Start-up checks the pages of what the first screens read, and not the cache's history (orders,
 * activity...), whose size would make every start wait on it.
 */
describe('the data file check at start', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  function seeded(): { path: string; profileId: string; strategyId: string } {
    const path = folder.file();
    const store = openStore(path);
    const { profileId, strategyId } = seedStrategy(store);
    for (let i = 0; i < 40; i++)
      store.versions.upsert(profileId, versionResponse(strategyId, { orders: 50 }));
    store.close();
    return { path, profileId, strategyId };
  }

  it('opens a file whose orders are damaged: the first screens read none, a read of them fails', () => {
    const { path, profileId, strategyId } = seeded();
    damageTable(path, 'orders');
    const store = openStore(path);
    expect(store.strategies.get(profileId, strategyId)).not.toBeNull();
    const version = store.versions.listForStrategy(profileId, strategyId)[0]!;
    expect(() => store.versions.orders(profileId, version.id)).toThrow();
    store.close();
  });

  it('refuses a file whose holdings are damaged, as it does its profiles', () => {
    const { path } = seeded();
    damageTable(path, 'holdings');
    expect(() => openStore(path).close()).toThrow(StoreError);
    expect(() => openStore(path).close()).toThrow(
      expect.objectContaining({ code: 'store-damaged' }),
    );
  });
});
