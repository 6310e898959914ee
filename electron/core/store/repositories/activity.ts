import type { Statement } from 'better-sqlite3';
import type { ActivityFilter } from '../../../../shared/activity/views';
import { CHAIN_START, type ActivityKind } from '../../../../shared/activity/kinds';
import type { RepositoryContext } from './context';
import { canonicalJson, entryCanonical, entryHash } from './activity-canonical';

/** One stored entry, as SQLite holds it. */
export interface ActivityRow {
  seq: number;
  profile_id: string;
  chain_index: number;
  at: string;
  kind: ActivityKind;
  strategy_id: string | null;
  version_id: string | null;
  refers_to: number | null;
  /** Canonical JSON text. */
  payload: string;
  previous_hash: string;
  hash: string;
}

export interface NewActivityEntry {
  profileId: string;
  kind: ActivityKind;
  strategyId?: string | null;
  versionId?: string | null;
  refersTo?: number | null;
  /** Plain data only: strings (decimals too), whole numbers, booleans, null, arrays, objects. */
  payload: Record<string, unknown>;
  /** Seeding test data only: the time to record instead of the app clock's. */
  at?: string;
}

/** Rows read per query when walking the log. */
const BATCH = 2000;

export type ActivityRepository = ReturnType<typeof activityRepository>;

/** The first day after `day` (YYYY-MM-DD), so a day filter is `at >= from AND at < next(to)`. */
export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function whereOf(
  filter: ActivityFilter,
  untilSeq?: number,
): { sql: string; params: (string | number)[] } {
  const clauses = ['profile_id = ?'];
  const params: (string | number)[] = [filter.profileId];
  if (untilSeq !== undefined) {
    clauses.push('seq <= ?');
    params.push(untilSeq);
  }
  if (filter.strategyId !== undefined) {
    clauses.push('strategy_id = ?');
    params.push(filter.strategyId);
  }
  if (filter.kinds !== undefined) {
    clauses.push(`kind IN (${filter.kinds.map(() => '?').join(',') || 'NULL'})`);
    params.push(...filter.kinds);
  }
  if (filter.from !== undefined) {
    clauses.push('at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    clauses.push('at < ?');
    params.push(nextDay(filter.to));
  }
  return { sql: clauses.join(' AND '), params };
}

/**
 * The same filter over the per-day counts (days are whole, as the filter's are), or over the
 * totals without days.
 */
function countsWhereOf(filter: ActivityFilter): { table: string; sql: string; params: string[] } {
  const clauses = ['profile_id = ?'];
  const params: string[] = [filter.profileId];
  if (filter.strategyId !== undefined) {
    clauses.push('strategy_id = ?');
    params.push(filter.strategyId);
  }
  if (filter.kinds !== undefined) {
    clauses.push(`kind IN (${filter.kinds.map(() => '?').join(',') || 'NULL'})`);
    params.push(...filter.kinds);
  }
  if (filter.from !== undefined) {
    clauses.push('day >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    clauses.push('day <= ?');
    params.push(filter.to);
  }
  const days = filter.from !== undefined || filter.to !== undefined;
  return {
    table: days ? 'activity_counts' : 'activity_totals',
    sql: clauses.join(' AND '),
    params,
  };
}

/**
 * The activity log's table: appends (each linked to the profile's previous entry by its hash)
 * and the reads of the view, the export and the chain check. Entries are only ever appended.
 */
export function activityRepository({ db, now }: RepositoryContext) {
  // Prepared on first use: a store opened at an older schema (tests) has no activity table.
  const prepareAll = () => {
    const insert = db.prepare(
      `INSERT INTO activity (seq, profile_id, chain_index, at, kind, strategy_id, version_id,
         refers_to, payload, previous_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const lastSeq = db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM activity');
    const chainTail = db.prepare<[string], { chain_index: number; hash: string }>(
      `SELECT chain_index, hash FROM activity WHERE profile_id = ?
       ORDER BY chain_index DESC LIMIT 1`,
    );
    const bySeq = db.prepare<[number], ActivityRow>('SELECT * FROM activity WHERE seq = ?');
    const referring = db.prepare<[number], ActivityRow>(
      'SELECT * FROM activity WHERE refers_to = ? ORDER BY seq',
    );
    const lastReferring = db.prepare<[number], ActivityRow>(
      'SELECT * FROM activity WHERE refers_to = ? ORDER BY seq DESC LIMIT 1',
    );
    const executionSent = db.prepare<[string], { seq: number }>(
      `SELECT seq FROM activity WHERE kind = 'execution-sent'
         AND json_extract(payload, '$.journalId') = ? ORDER BY seq LIMIT 1`,
    );
    const byVersionKind = db.prepare<[string, string, string], ActivityRow>(
      `SELECT * FROM activity WHERE profile_id = ? AND version_id = ? AND kind = ?
       ORDER BY seq LIMIT 1`,
    );
    // `seq` completes the order: a file rebuilt without the unique index may hold an index twice,
    // and both must reach the check even where a batch ends between them.
    const firstChainBatch = db.prepare<[], ActivityRow>(
      `SELECT * FROM activity ORDER BY profile_id, chain_index, seq LIMIT ${BATCH}`,
    );
    const nextChainBatch = db.prepare<[string, number, number], ActivityRow>(
      `SELECT * FROM activity WHERE (profile_id, chain_index, seq) > (?, ?, ?)
       ORDER BY profile_id, chain_index, seq LIMIT ${BATCH}`,
    );
    return {
      insert,
      lastSeq,
      chainTail,
      bySeq,
      referring,
      lastReferring,
      executionSent,
      byVersionKind,
      firstChainBatch,
      nextChainBatch,
    };
  };
  let statements: ReturnType<typeof prepareAll> | undefined;
  const q = () => (statements ??= prepareAll());
  const byQuery = new Map<string, Statement<unknown[]>>();
  const prepared = (sql: string) => {
    let statement = byQuery.get(sql);
    if (!statement) byQuery.set(sql, (statement = db.prepare<unknown[]>(sql)));
    return statement;
  };

  const listeners = new Set<(row: ActivityRow) => void>();
  /** Appended in the transaction under way: announced once it commits, dropped if it rolls back. */
  let uncommitted: ActivityRow[] = [];

  function append(entry: NewActivityEntry): ActivityRow {
    if (!db.inTransaction)
      throw new Error('An activity entry is written inside its action’s transaction.');
    const seq = (q().lastSeq.get()?.seq ?? 0) + 1;
    const tail = q().chainTail.get(entry.profileId);
    const fields = {
      seq,
      profileId: entry.profileId,
      chainIndex: (tail?.chain_index ?? 0) + 1,
      at: entry.at ?? now(),
      kind: entry.kind,
      strategyId: entry.strategyId ?? null,
      versionId: entry.versionId ?? null,
      refersTo: entry.refersTo ?? null,
    };
    // Built once: stored as the payload and hashed as part of the entry.
    const payload = canonicalJson(entry.payload);
    const previousHash = tail?.hash ?? CHAIN_START;
    const hash = entryHash(previousHash, entryCanonical(fields, payload));
    q().insert.run(
      seq,
      fields.profileId,
      fields.chainIndex,
      fields.at,
      fields.kind,
      fields.strategyId,
      fields.versionId,
      fields.refersTo,
      payload,
      previousHash,
      hash,
    );
    const row: ActivityRow = {
      seq,
      profile_id: fields.profileId,
      chain_index: fields.chainIndex,
      at: fields.at,
      kind: fields.kind,
      strategy_id: fields.strategyId,
      version_id: fields.versionId,
      refers_to: fields.refersTo,
      payload,
      previous_hash: previousHash,
      hash,
    };
    uncommitted.push(row);
    return row;
  }

  return {
    /**
     * Runs an action's bookkeeping and its entries in one IMMEDIATE transaction, committed with
     * the WAL fsynced (as the execution journal is); inside a transaction already, it joins it.
     * Listeners hear of the entries once they are committed (unless `announce` is false: seeding
     * test data).
     */
    record<T>(
      write: (appendEntry: typeof append) => T,
      options: { announce?: boolean; fsync?: boolean } = {},
    ): T {
      if (db.inTransaction) return db.transaction(() => write(append))();
      uncommitted = [];
      // `fsync: false` (an execution's answer): committed to the WAL, which survives an app
      // crash; the next fsynced commit (the next execution's journal entry) makes it survive a
      // power cut too. Lost to a power cut, its execution reads "sent", then unknown.
      const fsync = options.fsync !== false;
      if (fsync) db.pragma('synchronous = FULL');
      let result: T;
      try {
        result = db.transaction(() => write(append)).immediate();
      } catch (error) {
        uncommitted = [];
        throw error;
      } finally {
        if (fsync) db.pragma('synchronous = NORMAL');
      }
      const committed = options.announce === false ? [] : uncommitted;
      uncommitted = [];
      for (const row of committed) for (const listener of [...listeners]) listener(row);
      return result;
    },
    /** Hears of every committed entry (the desk turns it into the `activity-appended` event). */
    onAppended(listener: (row: ActivityRow) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get(seq: number): ActivityRow | null {
      return q().bySeq.get(seq) ?? null;
    },
    /** Entries referring to this one (an execution's answers, retries, end), oldest first. */
    referringTo(seq: number): ActivityRow[] {
      return q().referring.all(seq);
    },
    latestReferringTo(seq: number): ActivityRow | null {
      return q().lastReferring.get(seq) ?? null;
    },
    /** The `execution-sent` entry of a journal entry, if it was recorded. */
    executionSentSeq(journalId: string): number | null {
      return q().executionSent.get(journalId)?.seq ?? null;
    },
    firstOfVersion(profileId: string, versionId: string, kind: ActivityKind): ActivityRow | null {
      return q().byVersionKind.get(profileId, versionId, kind) ?? null;
    },
    /** Each profile's chain: how many entries, and its newest entry's seq (newest chains first). */
    chains(): { profileId: string; entries: number; lastSeq: number }[] {
      return prepared(
        `SELECT profile_id AS profileId, count(*) AS entries, max(seq) AS lastSeq
         FROM activity GROUP BY profile_id ORDER BY lastSeq DESC`,
      ).all() as { profileId: string; entries: number; lastSeq: number }[];
    },
    /** The newest entry's seq (0 when empty): an export stops there, whatever is appended meanwhile. */
    lastSeq(): number {
      return q().lastSeq.get()?.seq ?? 0;
    },
    /**
     * How many entries match. The whole log's filters are summed from the per-day counts or
     * the totals (migration 016); an export's, up to a seq, counted entry by entry.
     */
    count(filter: ActivityFilter, untilSeq?: number): number {
      const where = untilSeq === undefined ? countsWhereOf(filter) : null;
      if (where) {
        const row = prepared(
          `SELECT coalesce(sum(entries), 0) AS n FROM ${where.table} WHERE ${where.sql}`,
        ).get(...where.params) as { n: number };
        return row.n;
      }
      const entries = whereOf(filter, untilSeq);
      const row = prepared(`SELECT count(*) AS n FROM activity WHERE ${entries.sql}`).get(
        ...entries.params,
      ) as { n: number };
      return row.n;
    },
    /**
     * A window of the filtered log, newest first: the window's seqs from an index first, then
     * only those entries read whole.
     */
    page(filter: ActivityFilter, offset: number, limit: number): ActivityRow[] {
      const where = whereOf(filter);
      return prepared(
        `SELECT * FROM activity WHERE seq IN (SELECT seq FROM activity WHERE ${where.sql}
           ORDER BY seq DESC LIMIT ? OFFSET ?) ORDER BY seq DESC`,
      ).all(...where.params, limit, offset) as ActivityRow[];
    },
    /**
     * The filtered log, oldest first, read in batches by seq: nothing holds the connection
     * between batches, so the app keeps writing while an export is under way.
     */
    *iterate(filter: ActivityFilter, untilSeq?: number): Generator<ActivityRow, void, undefined> {
      const where = whereOf(filter, untilSeq);
      const batch = prepared(
        `SELECT * FROM activity WHERE ${where.sql} AND seq > ? ORDER BY seq LIMIT ${BATCH}`,
      );
      let after = 0;
      for (;;) {
        const rows = batch.all(...where.params, after) as ActivityRow[];
        yield* rows;
        if (rows.length < BATCH) return;
        after = rows[rows.length - 1]!.seq;
      }
    },
    /** Every entry, chain by chain, in chain order (the check), in batches. */
    *iterateChains(): Generator<ActivityRow, void, undefined> {
      let rows = q().firstChainBatch.all();
      for (;;) {
        yield* rows;
        if (rows.length < BATCH) return;
        const last = rows[rows.length - 1]!;
        rows = q().nextChainBatch.all(last.profile_id, last.chain_index, last.seq);
      }
    },
  };
}
