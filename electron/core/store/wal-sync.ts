import { open, type FileHandle } from 'node:fs/promises';

/**
 * Makes the commits made so far survive a power cut without holding up the event loop: the
 * write-ahead log is fsynced on libuv's thread pool instead of inside a commit (a synchronous
 * commit with synchronous=FULL stops every read and send of the process while the disk works).
 * Commits made with synchronous=NORMAL are in the WAL already, so they survive an app crash;
 * once `flushed()` resolves they survive a power cut as a FULL commit would. A checkpoint in
 * between copies them into the database file, which SQLite fsyncs itself before the WAL is
 * reused. Callers that arrive while an fsync is under way share the next one: one fsync for a
 * group of commits.
 */
export interface WalSync {
  /** Resolves once every commit made before the call is on disk. */
  flushed(): Promise<void>;
  close(): Promise<void>;
}

export function walSync(walPath: string): WalSync {
  let handle: Promise<FileHandle> | null = null;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  const syncNow = async () => {
    const file = await (handle ??= open(walPath, 'r+'));
    await file.datasync();
  };
  const start = (): Promise<void> => {
    const sync = syncNow().finally(() => {
      if (running === sync) running = null;
    });
    running = sync;
    return sync;
  };

  return {
    flushed() {
      if (running === null) return start();
      // The fsync under way may have begun before this caller's commit: the next one covers it
      // (and everyone else who arrives before it starts).
      next ??= running
        .catch(() => undefined)
        .then(() => {
          next = null;
          return start();
        });
      return next;
    },
    async close() {
      const file = handle;
      handle = null;
      if (file) await (await file).close();
    },
  };
}
