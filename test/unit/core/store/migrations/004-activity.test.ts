import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../../../support/store-fixtures';

describe('migration 004-activity', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('follows 003 and adds the activity table with its indexes', () => {
    expect(MIGRATIONS.map((m) => m.version)).toContain(4);
    const path = folder.file();
    openStore(path).close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(4);
    const columns = (db.pragma('table_info(activity)') as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual([
      'seq',
      'profile_id',
      'chain_index',
      'at',
      'kind',
      'strategy_id',
      'version_id',
      'refers_to',
      'payload',
      'previous_hash',
      'hash',
    ]);
    const indexes = (db.pragma('index_list(activity)') as { name: string }[]).map((i) => i.name);
    expect(indexes).toEqual(
      expect.arrayContaining([
        'activity_profile',
        'activity_strategy',
        'activity_version',
        'activity_refers',
        'activity_execution',
      ]),
    );
    // Entries outlive what they name: no foreign keys.
    expect(db.pragma('foreign_key_list(activity)')).toEqual([]);
    db.close();
  });

  it('takes a file at schema 3 with data to 4 without losing it', () => {
    const path = folder.file();
    const old = openStore(path, { targetVersion: 3 });
    const { profileId, strategyId } = seedStrategy(old);
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(4);
    expect(store.strategies.get(profileId, strategyId)).not.toBeNull();
    expect(store.activity.count({ profileId })).toBe(0);
    store.close();
  });

  it('refuses to change or remove an entry through SQLite', () => {
    const path = folder.file();
    const store = openStore(path);
    const { profileId } = seedStrategy(store);
    store.activity.record((append) =>
      append({ profileId, kind: 'profile-created', payload: { profileName: 'Demo' } }),
    );
    store.close();
    const db = new Database(path);
    expect(() => db.prepare(`UPDATE activity SET payload = '{}'`).run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM activity').run()).toThrow(/append-only/);
    expect((db.prepare('SELECT count(*) AS n FROM activity').get() as { n: number }).n).toBe(1);
    db.close();
  });
});
