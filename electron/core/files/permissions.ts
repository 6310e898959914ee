import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, parse, resolve } from 'node:path';

/** Only the manager's own account may read the data folder: profiles, drafts, journal, logs. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Windows has no POSIX modes (the folder sits in the user's own profile there). */
export function hasPosixModes(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32';
}

/**
 * What the app itself keeps in the data folder: the database and its -wal/-shm, the lock, the
 * sandbox's state, the window's place, the logs and default exports. Only these are touched: a
 * data folder chosen by hand may hold other files, and Electron's own files sit beside ours.
 */
const APP_FILE = /^(strategy-desk\.|sandbox-state\.json|window-state\.json)/;
const APP_FOLDERS = new Set(['logs', 'exports']);

/**
 * Creates the data folder when missing and makes it and what the app keeps in it private
 * (folders 0700, files 0600 at most), whatever the umask was when they were made: an older
 * version, or an older run, may have left them readable by everyone. Modes are only narrowed,
 * never widened (a file made read-only stays so, and the store's start check says so). Symbolic
 * links are left alone, and so is a shared folder given as the data folder (/tmp, the home
 * folder): its own mode is not ours to change, the app's files in it are still private.
 */
export function secureDataFolder(dir: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!hasPosixModes(platform)) return;
  if (!isSharedFolder(dir)) narrow(dir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && APP_FILE.test(entry.name)) narrow(path, PRIVATE_FILE_MODE);
    else if (entry.isDirectory() && APP_FOLDERS.has(entry.name)) narrowTree(path);
  }
}

/** One file made 0600 at most (a no-op where it does not exist, or on Windows). */
export function makePrivate(path: string, platform: NodeJS.Platform = process.platform): void {
  if (!hasPosixModes(platform)) return;
  narrow(path, PRIVATE_FILE_MODE);
}

function narrowTree(folder: string): void {
  narrow(folder, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) narrowTree(path);
    else if (entry.isFile()) narrow(path, PRIVATE_FILE_MODE);
  }
}

/** A folder others rely on: the sticky bit (/tmp), the file system's root, the home folder. */
function isSharedFolder(dir: string): boolean {
  const full = resolve(dir);
  if (full === parse(full).root || full === resolve(homedir())) return true;
  return (lstatSync(full).mode & 0o1000) !== 0;
}

function narrow(path: string, allowed: number): void {
  let mode: number;
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    mode = stat.mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((mode & ~allowed) !== 0) chmodSync(path, mode & allowed);
}
