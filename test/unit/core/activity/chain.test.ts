import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkChains } from '../../../../electron/core/activity/verify';
import { openStore, type Store } from '../../../../electron/core/store';
import { seedActivity } from '../../../support/activity-seed';
import { tempFolder } from '../../../support/store-fixtures';

const PROFILE = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

/** A raw copy of the database with the append-only triggers dropped, to tamper with. */
function tampered(path: string, copy: string, edit: (db: Database.Database) => void): Store {
  copyFileSync(path, copy);
  const db = new Database(copy);
  db.exec('DROP TRIGGER activity_no_update; DROP TRIGGER activity_no_delete;');
  edit(db);
  db.close();
  return openStore(copy);
}

const check = (store: Store) => checkChains(store.activity.iterateChains(), 'now');

describe('the activity chains', () => {
  let folder: ReturnType<typeof tempFolder>;
  let path: string;
  beforeEach(() => {
    folder = tempFolder();
    path = folder.file();
    const store = openStore(path);
    seedActivity(store, { profileId: PROFILE, profileName: 'Demo', count: 60 });
    seedActivity(store, { profileId: OTHER, profileName: 'Other', count: 5 });
    seedActivity(store, { profileId: PROFILE, profileName: 'Demo', count: 10 });
    store.close();
  });
  afterEach(() => folder.cleanup());

  it('link each entry to the previous one of its profile, from the chain start', () => {
    const store = openStore(path);
    const result = check(store);
    expect(result).toMatchObject({ ok: true, entries: 75, brokenAt: null });
    const rows = [...store.activity.iterateChains()].filter((r) => r.profile_id === PROFILE);
    expect(rows.map((r) => r.chain_index)).toEqual(Array.from({ length: 70 }, (_, i) => i + 1));
    expect(rows[0]!.previous_hash).toBe('0'.repeat(64));
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.previous_hash).toBe(rows[i - 1]!.hash);
    store.close();
  });

  it('name an entry whose payload was edited', () => {
    const store = tampered(path, folder.file('edited.sqlite'), (db) =>
      db
        .prepare(`UPDATE activity SET payload = replace(payload, 'Demo', 'Demx') WHERE seq = 42`)
        .run(),
    );
    const result = check(store);
    expect(result.ok).toBe(false);
    expect(result.brokenAt).toMatchObject({ seq: 42, chainIndex: 42, profileId: PROFILE });
    expect(result.brokenAt!.reason).toMatch(
      /^Entry 42 of profile Demx \(2026-01-05 09:41 UTC\) does not match its hash: its content was changed after it was written\.$/,
    );
    store.close();
  });

  it('name an entry that was removed', () => {
    const store = tampered(path, folder.file('removed.sqlite'), (db) =>
      db.prepare('DELETE FROM activity WHERE seq = 42').run(),
    );
    const result = check(store);
    expect(result.brokenAt).toMatchObject({ chainIndex: 42, seq: 43 });
    expect(result.brokenAt!.reason).toBe(
      'Entry 42 of profile Demo is missing: the chain jumps from 41 to 43.',
    );
    store.close();
  });

  it('name entries that were swapped in place', () => {
    const store = tampered(path, folder.file('swapped.sqlite'), (db) => {
      // Entries 10 and 11 trade places: their contents move, their indexes stay.
      db.exec(`
        UPDATE activity SET chain_index = -1 WHERE seq = 10;
        UPDATE activity SET chain_index = 10 WHERE seq = 11;
        UPDATE activity SET chain_index = 11 WHERE seq = 10;
      `);
    });
    const result = check(store);
    expect(result.ok).toBe(false);
    expect(result.brokenAt).toMatchObject({ chainIndex: 10, seq: 11 });
    expect(result.brokenAt!.reason).toMatch(/^Entry 10 of profile Demo .* does not match its hash/);
    store.close();
  });

  it('name an entry that was replaced by one with a hash of its own', () => {
    const store = tampered(path, folder.file('forged.sqlite'), (db) => {
      // A forger who recomputes entry 5's hash still breaks entry 6's link.
      const row = db.prepare('SELECT * FROM activity WHERE seq = 5').get() as {
        hash: string;
      };
      db.prepare(`UPDATE activity SET hash = ? WHERE seq = 5`).run('f'.repeat(64));
      expect(row.hash).not.toBe('f'.repeat(64));
    });
    const result = check(store);
    expect(result.brokenAt!.chainIndex).toBe(5);
    store.close();
  });
});
