import type { RepositoryContext } from './context';

/** The process holding the data folder, as it wrote itself into the database. */
export interface FolderHolder {
  /** A random id of that run. */
  holder: string;
  pid: number;
  host: string;
  /** Which app: "the browser host", "the desktop app". */
  app: string;
  startedAt: string;
  /** Where it can be found (the browser host's address, without its key). */
  address: string | null;
  /** The lock file it holds, as its device and inode ("dev:ino"). */
  lockFile: string;
}

interface Row {
  holder: string;
  pid: number;
  host: string;
  app: string;
  started_at: string;
  address: string | null;
  lock_file: string;
}

export type HolderRepository = ReturnType<typeof holderRepository>;

/**
 * The one row naming the process that holds the data folder (migration 006). Taking it is one
 * IMMEDIATE transaction: of two processes starting at once, the second reads the first's row.
 */
export function holderRepository({ db }: RepositoryContext) {
  // Prepared on first use: a file opened at an earlier schema (tests of older migrations) has no table.
  let statements: ReturnType<typeof prepare> | null = null;
  const prepare = () => ({
    select: db.prepare<[], Row>('SELECT * FROM data_folder_holder WHERE slot = 1'),
    upsert: db.prepare(
      `INSERT INTO data_folder_holder
         (slot, holder, pid, host, app, started_at, address, lock_file)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (slot) DO UPDATE SET holder = excluded.holder, pid = excluded.pid,
         host = excluded.host, app = excluded.app, started_at = excluded.started_at,
         address = excluded.address, lock_file = excluded.lock_file`,
    ),
    describe: db.prepare('UPDATE data_folder_holder SET address = ? WHERE holder = ?'),
    release: db.prepare('DELETE FROM data_folder_holder WHERE holder = ?'),
  });
  const q = () => (statements ??= prepare());
  const fromRow = (r: Row): FolderHolder => ({
    holder: r.holder,
    pid: r.pid,
    host: r.host,
    app: r.app,
    startedAt: r.started_at,
    address: r.address,
    lockFile: r.lock_file,
  });

  const claim = db.transaction(
    (me: FolderHolder, stillRuns: (other: FolderHolder) => boolean): FolderHolder | null => {
      const row = q().select.get();
      const other = row && row.holder !== me.holder ? fromRow(row) : null;
      if (other && stillRuns(other)) return other;
      q().upsert.run(me.holder, me.pid, me.host, me.app, me.startedAt, me.address, me.lockFile);
      return null;
    },
  );

  return {
    /**
     * Writes `me` as the holder unless another holder is written there that `stillRuns` says
     * runs: that one is returned then, and nothing is written.
     */
    claim(me: FolderHolder, stillRuns: (other: FolderHolder) => boolean): FolderHolder | null {
      return claim.immediate(me, stillRuns);
    },
    describe(holder: string, address: string): void {
      q().describe.run(address, holder);
    },
    /** Leaves the data folder: the row goes, if it is still this holder's. */
    release(holder: string): void {
      q().release.run(holder);
    },
  };
}
