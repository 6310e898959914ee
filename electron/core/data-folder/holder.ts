import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FolderHolder, Store } from '../store';
import { DataFolderInUseError, type DataFolderLock } from './lock';

/**
 * The data folder's holder as the database names it, besides the lock file: a second process
 * that got a lock file of its own (the first one's was deleted while it ran) still finds the
 * first here and is refused.
 */
export interface DataFolderHold {
  describe(change: { address: string }): void;
  release(): void;
}

/**
 * Whether the process named in the database may still hold the folder. It does not when it held
 * the very lock file this process now holds (the operating system gave that lock up only when it
 * ended), nor when it ran on another host (the database's WAL cannot be shared across hosts; the
 * lock file decides there); otherwise it does while its pid is alive.
 */
export function holderStillRuns(
  other: FolderHolder,
  me: { lockFile: string; host: string },
): boolean {
  if (other.lockFile === me.lockFile || other.host !== me.host) return false;
  try {
    process.kill(other.pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has that pid; it runs.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function holdDataFolder(
  store: Pick<Store, 'holder'>,
  lock: DataFolderLock,
  app: string,
): DataFolderHold {
  const me: FolderHolder = {
    holder: randomUUID(),
    pid: process.pid,
    host: hostname(),
    app,
    startedAt: new Date().toISOString(),
    address: null,
    lockFile: lock.lockFile,
  };
  const other = store.holder.claim(me, (o) => holderStillRuns(o, me));
  if (other) {
    const { pid, host, startedAt, address } = other;
    throw new DataFolderInUseError(lock.dataDir, { pid, host, app: other.app, startedAt, address });
  }
  let held = true;
  return {
    describe({ address }) {
      if (held) store.holder.describe(me.holder, address);
    },
    release() {
      if (!held) return;
      held = false;
      try {
        store.holder.release(me.holder);
      } catch {
        // The store failed or was closed first: the row left behind names a process that ended,
        // which the next start tells from a running one.
      }
    },
  };
}
