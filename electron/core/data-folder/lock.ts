import Database from 'better-sqlite3';
import {
  closeSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { makePrivate } from '../files/permissions';

/**
 * One process at a time owns a data folder: two would both execute the same draft. The lock is
 * an exclusive SQLite lock on a file of its own, held by the operating system for as long as the
 * process lives, so a crashed process leaves nothing stuck and a reused pid cannot fool it. A
 * lock file deleted while the app runs (a cleanup script, a sync tool) would let a second process
 * take a new one: the database also names its holder (holder.ts), and what must never happen
 * twice is claimed in the database itself (the execution journal's unique claims).
 */
export const LOCK_FILE = 'strategy-desk.lock';
/** Who holds the lock, for the message the second process shows (the lock file itself is locked). */
export const OWNER_FILE = 'strategy-desk.owner.json';

const owner = z.object({
  pid: z.number().int(),
  host: z.string(),
  app: z.string(),
  startedAt: z.string(),
  address: z.string().nullable(),
});
export type DataFolderOwner = z.infer<typeof owner>;

export class DataFolderInUseError extends Error {
  override readonly name = 'DataFolderInUseError';
  constructor(
    readonly dataDir: string,
    readonly owner: DataFolderOwner | null,
  ) {
    super(inUseMessage(dataDir, owner));
  }
}

function inUseMessage(dataDir: string, who: DataFolderOwner | null): string {
  const where = who
    ? ` (${who.app}, process ${who.pid} on ${who.host}, started ${who.startedAt}` +
      `${who.address ? `, open at ${who.address}` : ''})`
    : '';
  return (
    `Strategy desk is already running with the data folder ${dataDir}${where}. ` +
    `Use that window or tab, or stop it first; to run a second copy, give it another data folder.`
  );
}

export interface DataFolderLock {
  readonly dataDir: string;
  /** The lock file this process holds, as its device and inode ("dev:ino"). */
  readonly lockFile: string;
  /** Records where the owner can be found (the browser host's address, without its key). */
  describe(change: { address: string }): void;
  release(): void;
}

export interface LockOptions {
  /** Which app holds it: "the browser host", "the desktop app". */
  app: string;
  nativeBinding?: string;
}

export function lockDataFolder(dataDir: string, options: LockOptions): DataFolderLock {
  const path = join(dataDir, LOCK_FILE);
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  makePrivate(path);
  let db: Database.Database;
  try {
    db = holdLock(path, dataDir, options);
  } catch (error) {
    // The lock file keeps nothing: damaged, it is emptied in place and taken again. Its content
    // was readable, so no process holds it; emptying keeps the file itself, whose operating
    // system lock is what two processes race for.
    if (!isDamagedFile(error)) throw error;
    truncateSync(path, 0);
    db = holdLock(path, dataDir, options);
  }
  const { dev, ino } = statSync(path, { bigint: true });
  const ownerPath = join(dataDir, OWNER_FILE);
  let current: DataFolderOwner = {
    pid: process.pid,
    host: hostname(),
    app: options.app,
    startedAt: new Date().toISOString(),
    address: null,
  };
  const write = () =>
    writeFileSync(ownerPath, `${JSON.stringify(current)}\n`, { mode: 0o600, encoding: 'utf8' });
  write();
  makePrivate(ownerPath);
  let held = true;
  return {
    dataDir,
    lockFile: `${dev}:${ino}`,
    describe(change) {
      if (!held) return;
      current = { ...current, ...change };
      write();
    },
    release() {
      if (!held) return;
      held = false;
      rmSync(ownerPath, { force: true });
      db.close();
    },
  };
}

/** Opens the lock file and takes its exclusive lock, or says who holds it. */
function holdLock(path: string, dataDir: string, options: LockOptions): Database.Database {
  // No busy wait: a lock held by another process is an answer, not a reason to wait.
  const db = new Database(path, {
    timeout: 0,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // A write takes the exclusive lock; in EXCLUSIVE mode it is kept until the connection closes.
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (at TEXT); COMMIT;');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DataFolderInUseError(dataDir, readOwner(dataDir));
    }
    throw error;
  }
}

function isDamagedFile(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}

function readOwner(dataDir: string): DataFolderOwner | null {
  try {
    const parsed = owner.safeParse(JSON.parse(readFileSync(join(dataDir, OWNER_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    // Written a moment after the lock is taken, or removed a moment before it is released.
    return null;
  }
}
