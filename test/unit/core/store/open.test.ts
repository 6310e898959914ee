import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  openSync,
  lstatSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  StoreError,
  openStore,
  type Migration,
} from '../../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../../support/store-fixtures';

/** The StoreError opening `path` fails with (the test fails if it opens). */
async function openError(path: string, options = {}): Promise<StoreError> {
  const error: unknown = await Promise.resolve()
    .then(() => openStore(path, options).close())
    .then(
      () => new Error('openStore accepted the file'),
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

describe('openStore', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  // The statement journal of a transaction past 64 KiB goes to a temporary file unless kept
  // in memory: a write of every page it touches, on the event loop (an execution's answer
  // touches about fifty). Seen through the process's open files, where SQLite's unlinked
  // temporary files still show while the transaction runs.
  it.runIf(process.platform === 'linux')(
    "keeps a large transaction's statement journal in memory, not in a temporary file",
    () => {
      const store = openStore(folder.file());
      const { profileId } = seedStrategy(store);
      const openTemporaryFiles = () =>
        readdirSync('/proc/self/fd')
          .map((fd) => `/proc/self/fd/${fd}`)
          // The listing's own descriptor is closed by now.
          .filter((link) => lstatSync(link, { throwIfNoEntry: false }) !== undefined)
          .filter((link) => /etilqs_/.test(readlinkSync(link))).length;
      const before = openTemporaryFiles();
      const during = store.activity.record((append) => {
        for (let i = 0; i < 300; i++)
          append({
            profileId,
            kind: 'profile-created',
            payload: { profileName: `Demo ${i}`, note: 'x'.repeat(1000) },
          });
        return openTemporaryFiles();
      });
      expect(store.activity.count({ profileId })).toBe(300);
      store.close();
      expect(during).toBe(before);
    },
  );

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

  it('refuses a file written by a newer app, names both schemas and leaves the file alone', async () => {
    const path = folder.file();
    openStore(path).close();
    const db = new Database(path);
    const newer = LATEST_SCHEMA_VERSION + 1;
    db.pragma(`user_version = ${newer}`);
    db.close();
    const before = readFileSync(path);

    const error = await openError(path);
    expect(error.code).toBe('store-newer-schema');
    expect(error.message).toBe(
      `This data folder was written by a newer Strategy desk (schema ${newer}; this app knows up to ` +
        `${LATEST_SCHEMA_VERSION}). Update the app to open it, or choose another data folder.`,
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a file that is not SQLite', async () => {
    const path = folder.file('notes.sqlite');
    writeFileSync(path, 'symbol,weight\nAAPL,10\n'.repeat(200));
    const error = await openError(path);
    expect(error.code).toBe('store-not-sqlite');
    expect(error.message).toContain('is not a Strategy desk database (it is not a SQLite file');
    expect(error.message).toContain(path);
  });

  it('refuses a SQLite database of another program', async () => {
    const path = folder.file('other.sqlite');
    const db = new Database(path);
    db.exec('CREATE TABLE contacts (name TEXT)');
    db.close();
    const error = await openError(path);
    expect(error.code).toBe('store-not-ours');
    expect(error.message).toContain('a SQLite database of another program');
  });

  it('leaves the file at the last good schema when a migration fails', async () => {
    const path = folder.file();
    const broken: Migration = {
      version: LATEST_SCHEMA_VERSION + 1,
      name: 'broken',
      up(db) {
        db.exec('CREATE TABLE half_done (x TEXT)');
        db.exec('THIS IS NOT SQL');
      },
    };
    const error = await openError(path, { migrations: [...MIGRATIONS, broken] });
    expect(error.code).toBe('store-migration-failed');
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

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('openStore: the data file at rest', () => {
  let folder: ReturnType<typeof tempFolder>;
  let umask: number;
  beforeEach(() => {
    folder = tempFolder();
    // The loosest umask: the modes must not come from it.
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
    folder.cleanup();
  });

  it('creates the database, -wal and -shm readable by their owner only', () => {
    const path = folder.file();
    const store = openStore(path);
    store.settings.set('k', 'v');
    expect([modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([
      0o600, 0o600, 0o600,
    ]);
    store.close();
  });

  it('narrows a database and its -wal an older run left readable by everyone', () => {
    const path = folder.file();
    openStore(path).close();
    chmodSync(path, 0o644);
    writeFileSync(`${path}-wal`, '', { mode: 0o666 });
    chmodSync(`${path}-wal`, 0o666);
    const store = openStore(path);
    expect([modeOf(path), modeOf(`${path}-wal`)]).toEqual([0o600, 0o600]);
    store.close();
  });
});

describe('openStore: the start-up check', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('refuses a file with a damaged page, in words, without SQLite text', async () => {
    const path = folder.file();
    const store = openStore(path);
    for (let i = 0; i < 20; i++) {
      store.profiles.create({
        name: `Profile ${i}`,
        baseUrl: 'https://service.example.com',
        clientId: `client-${i}`,
        environment: 'production',
      });
    }
    store.close();
    const db = new Database(path);
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const { rootpage } = db
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'profiles'")
      .get() as { rootpage: number };
    db.close();
    // The first byte of a b-tree page says what kind of page it is: 0xff is none.
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.from([0xff, 0xff, 0xff, 0xff]), 0, 4, (rootpage - 1) * pageSize);
    closeSync(fd);

    const error = await openError(path);
    expect(error.code).toBe('store-damaged');
    expect(error.message).toContain(`The data file ${path} is damaged`);
    expect(error.message).toContain('move that file');
    expect(error.message.replace(path, '')).not.toMatch(/SQLITE|malformed|btree|page \d/i);
  });

  it('refuses a read-only data file before the first save fails, and leaves it alone', () => {
    const path = folder.file();
    openStore(path).close();
    const before = readFileSync(path);
    const asRoot = process.getuid?.() === 0;
    // Root writes through a 0444 file: the check then runs as "nobody", who owns the folder.
    const uid = asRoot ? 65534 : process.getuid!();
    const gid = asRoot ? 65534 : process.getgid!();
    chownSync(folder.dir, uid, gid);
    chownSync(path, uid, gid);
    chmodSync(path, 0o444);
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'open-check-child.ts'), path],
      { uid, gid, encoding: 'utf8', env: { ...process.env, HOME: folder.dir } },
    );
    expect(child.stderr).toBe('');
    const outcome = JSON.parse(child.stdout) as { code: string; message: string };
    expect(outcome.code).toBe('store-read-only');
    expect(outcome.message).toContain(`Strategy desk cannot save to its data file ${path}`);
    expect(outcome.message).toContain('Make the file and its folder writable');
    expect(outcome.message.replace(path, '')).not.toMatch(/SQLITE|attempt to write/i);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
