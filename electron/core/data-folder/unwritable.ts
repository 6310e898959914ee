import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Why the data folder cannot be used at start, as the manager can act on it. */
export type DataFolderProblem = 'read-only' | 'no-permission' | 'disk-full' | 'not-a-folder';

/**
 * The data folder could not be created or written at start: said in the app's words, as the
 * other start refusals are (the store's, the one-process lock's), never as the system's code.
 */
export class DataFolderError extends Error {
  override readonly name = 'DataFolderError';
  constructor(
    readonly problem: DataFolderProblem,
    readonly dataDir: string,
    options?: { cause?: unknown },
  ) {
    super(messageOf(problem, dataDir), options);
  }
}

function messageOf(problem: DataFolderProblem, dir: string): string {
  switch (problem) {
    case 'read-only':
      return (
        `Strategy desk cannot write to its data folder ${dir}: the disk or the folder is ` +
        `read-only (a disk or share mounted read-only, a locked card). The app keeps its drafts ` +
        `and its execution journal there. Make it writable (or choose another data folder), ` +
        `then start the app again.`
      );
    case 'no-permission':
      return (
        `Strategy desk is not allowed to write to its data folder ${dir} with this user ` +
        `account. Make the folder and the files in it writable for your account (or choose ` +
        `another data folder), then start the app again.`
      );
    case 'disk-full':
      return (
        `The disk holding the data folder ${dir} is full: Strategy desk cannot save there. ` +
        `Free some space, then start the app again.`
      );
    case 'not-a-folder':
      return (
        `The data folder ${dir} is not a folder: a file of that name (or of a folder above it) ` +
        `is in the way. Move it away (or choose another data folder), then start the app again.`
      );
  }
}

const BY_CODE: Record<string, DataFolderProblem> = {
  EROFS: 'read-only',
  EACCES: 'no-permission',
  EPERM: 'no-permission',
  ENOSPC: 'disk-full',
  EDQUOT: 'disk-full',
  SQLITE_FULL: 'disk-full',
  ENOTDIR: 'not-a-folder',
  EEXIST: 'not-a-folder',
};

/**
 * A failure to create, lock or write the data folder in the app's words; null when the error is
 * no such failure (it is passed on as it is). A code that does not tell why by itself (a folder
 * that could not be made under a read-only disk answers ENOENT; SQLite says READONLY) is told
 * by asking whether the folder, or the nearest folder above it, may be written.
 */
export function dataFolderFailure(error: unknown, dataDir: string): DataFolderError | null {
  if (error instanceof DataFolderError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const base = /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
  const named = BY_CODE[base];
  if (named) return new DataFolderError(named, dataDir, { cause: error });
  if (base === 'ENOENT' || base === 'SQLITE_READONLY' || base === 'SQLITE_CANTOPEN') {
    const probed = writeProblem(dataDir);
    return probed ? new DataFolderError(probed, dataDir, { cause: error }) : null;
  }
  return null;
}

/** Why the folder (or the nearest existing one above it) cannot be written, if it cannot. */
function writeProblem(dataDir: string): DataFolderProblem | null {
  let dir = resolve(dataDir);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    // A read-only mount answers EROFS even to root, whom permissions do not stop.
    accessSync(dir, constants.W_OK);
    return null;
  } catch (error) {
    return BY_CODE[(error as NodeJS.ErrnoException).code ?? ''] ?? null;
  }
}
