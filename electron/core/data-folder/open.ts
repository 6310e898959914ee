import { join } from 'node:path';
import { holdDataFolder, type DataFolderHold } from './holder';
import { lockDataFolder, type DataFolderLock } from './lock';
import { secureDataFolder } from '../files/permissions';
import { dataFolderFailure } from './unwritable';
import { openLog, type DeskLog } from '../log/logger';
import { openStore, type Store } from '../store';

/** What the desk holds in its data folder: the lock, the database and its holder's row, the log. */
export interface OpenedDataFolder {
  store: Store;
  log: DeskLog;
  /** The lock and the database's holder together (released by `close`). */
  dataFolder: DataFolderLock;
  /** Leaves the folder: the holder's row, the database, the log, then the lock. */
  close(): Promise<void>;
}

/**
 * Takes the data folder at start, step by step, undoing the steps taken when one fails. A
 * folder that cannot be created or written is refused in the app's words (DataFolderError), as
 * a database it cannot use (StoreError) or a folder another process holds (DataFolderInUseError).
 */
export async function openDataFolder(options: {
  dataDir: string;
  app: string;
  nativeBinding?: string;
  knownSecrets: () => Promise<readonly string[]>;
}): Promise<OpenedDataFolder> {
  const { dataDir, app, nativeBinding } = options;
  const binding = nativeBinding !== undefined ? { nativeBinding } : {};
  const undo: (() => void)[] = [];
  const step = async <T>(take: () => T | Promise<T>, release?: (taken: T) => void) => {
    try {
      const taken = await take();
      if (release) undo.unshift(() => release(taken));
      return taken;
    } catch (error) {
      for (const release of undo) release();
      throw dataFolderFailure(error, dataDir) ?? error;
    }
  };
  await step(() => secureDataFolder(dataDir));
  const lock = await step(
    () => lockDataFolder(dataDir, { app, ...binding }),
    (l) => l.release(),
  );
  const store = await step(
    () => openStore(join(dataDir, 'strategy-desk.sqlite'), binding),
    (s) => s.close(),
  );
  // The database names its holder too: a process whose lock file was deleted is still found.
  const hold: DataFolderHold = await step(
    () => holdDataFolder(store, lock, app),
    (h) => h.release(),
  );
  const log = await step(() => openLog(dataDir, { knownSecrets: options.knownSecrets }));
  return {
    store,
    log,
    dataFolder: {
      dataDir: lock.dataDir,
      lockFile: lock.lockFile,
      describe(change) {
        lock.describe(change);
        hold.describe(change);
      },
      release() {
        hold.release();
        lock.release();
      },
    },
    async close() {
      hold.release();
      store.close();
      await log.close();
      lock.release();
    },
  };
}
