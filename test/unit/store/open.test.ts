import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  StoreError,
  openStore,
  type Migration,
} from '../../../electron/core/store';
import { tempFolder } from './fixtures';

function openError(path: string, options = {}): StoreError {
  try {
    openStore(path, options).close();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error('openStore accepted the file');
}

describe('openStore', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('turns on WAL, foreign keys and a busy timeout', () => {
    const path = folder.file();
    const store = openStore(path);
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    store.close();
    const db = new Database(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    // Per-connection settings are checked through their effect: a dangling reference fails.
    const again = openStore(path);
    expect(() =>
      again.strategies.upsert('no-such-profile', {
        id: '00000000-0000-4000-8000-000000000000',
        name: 'x',
        description: '',
        fee_percent: '0',
        is_liquidate_only: false,
        liquidate_only_reason: null,
        inserted_at: '2025-01-01T00:00:00.000000Z',
        updated_at: '2025-01-01T00:00:00.000000Z',
      }),
    ).toThrow(/FOREIGN KEY/);
    again.close();
  });

  it('loads better-sqlite3 from the native binding it is given', () => {
    const binding = createRequire(import.meta.url).resolve(
      'better-sqlite3/build/Release/better_sqlite3.node',
    );
    const store = openStore(folder.file(), { nativeBinding: binding });
    store.settings.set('k', 'v');
    expect(store.settings.get('k')).toBe('v');
    expect([...store.reports.iterateOrderReportRows({ profileId: 'p', strategyId: 's' })]).toEqual(
      [],
    );
    store.close();
    expect(() =>
      openStore(folder.file('b.sqlite'), { nativeBinding: folder.file('none.node') }),
    ).toThrow();
  });

  it('refuses a file written by a newer app, names both schemas and leaves the file alone', () => {
    const path = folder.file();
    openStore(path).close();
    const db = new Database(path);
    db.pragma('user_version = 7');
    db.close();
    const before = readFileSync(path);

    const error = openError(path);
    expect(error.code).toBe('newer-schema');
    expect(error.message).toBe(
      `This data folder was written by a newer Strategy desk (schema 7; this app knows up to ` +
        `${LATEST_SCHEMA_VERSION}). Update the app to open it, or choose another data folder.`,
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a file that is not SQLite', () => {
    const path = folder.file('notes.sqlite');
    writeFileSync(path, 'symbol,weight\nAAPL,10\n'.repeat(200));
    const error = openError(path);
    expect(error.code).toBe('not-sqlite');
    expect(error.message).toContain('is not a Strategy desk database (it is not a SQLite file');
    expect(error.message).toContain(path);
  });

  it('refuses a SQLite database of another program', () => {
    const path = folder.file('other.sqlite');
    const db = new Database(path);
    db.exec('CREATE TABLE contacts (name TEXT)');
    db.close();
    const error = openError(path);
    expect(error.code).toBe('not-ours');
    expect(error.message).toContain('a SQLite database of another program');
  });

  it('leaves the file at the last good schema when a migration fails', () => {
    const path = folder.file();
    const broken: Migration = {
      version: LATEST_SCHEMA_VERSION + 1,
      name: 'broken',
      up(db) {
        db.exec('CREATE TABLE half_done (x TEXT)');
        db.exec('THIS IS NOT SQL');
      },
    };
    const error = openError(path, { migrations: [...MIGRATIONS, broken] });
    expect(error.code).toBe('migration-failed');
    expect(error.message).toContain(`schema ${LATEST_SCHEMA_VERSION + 1} (broken) failed: `);
    expect(error.message).toContain(`left at schema ${LATEST_SCHEMA_VERSION}.`);
    const db = new Database(path);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get()).toBe(
      undefined,
    );
    db.close();
  });
});
