import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Only the manager's own account may read the data folder: profiles, drafts, journal, logs. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Windows has no POSIX modes (the folder sits in the user's own profile there). */
export function hasPosixModes(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32';
}

/**
 * Creates the data folder when missing and makes it and everything in it private (folders 0700,
 * files 0600 at most), whatever the umask was when they were made: an older version, or an older
 * run, may have left them readable by everyone. Modes are only narrowed, never widened (a file
 * made read-only stays so, and the store's start check says so). Symbolic links are left alone.
 */
export function secureDataFolder(dir: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!hasPosixModes(platform)) return;
  const walk = (folder: string) => {
    narrow(folder, PRIVATE_DIR_MODE);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) makePrivate(path, platform);
    }
  };
  walk(dir);
}

/** One file made 0600 at most (a no-op where it does not exist, or on Windows). */
export function makePrivate(path: string, platform: NodeJS.Platform = process.platform): void {
  if (!hasPosixModes(platform)) return;
  narrow(path, PRIVATE_FILE_MODE);
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
