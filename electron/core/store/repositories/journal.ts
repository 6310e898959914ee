import { randomUUID } from 'node:crypto';
import type { RepositoryContext } from './context';

/**
 * pending: journaled, not yet sent. sent: on the wire. accepted: 202 received.
 * unknown: ambiguous failure (timeout, reset, 5xx), to reconcile. rejected: 4xx, nothing created
 * (or withdrawn while pending: never sent, attempts 0).
 * dismissed: an unknown entry the manager chose to leave, after seeing it.
 */
export type JournalState = 'pending' | 'sent' | 'accepted' | 'unknown' | 'rejected' | 'dismissed';
export const IN_FLIGHT_STATES: readonly JournalState[] = ['pending', 'sent', 'unknown'];

export interface JournalEntry {
  id: string;
  profileId: string;
  strategyId: string;
  draftId: string | null;
  idempotencyKey: string;
  /** The exact JSON body sent (or to send), so a retry reuses it with the same key. */
  requestBody: string;
  state: JournalState;
  versionId: string | null;
  location: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  attempts: number;
}

interface JournalRecord {
  id: string;
  profile_id: string;
  strategy_id: string;
  draft_id: string | null;
  idempotency_key: string;
  request_body: string;
  state: JournalState;
  version_id: string | null;
  location: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  attempts: number;
}

const fromRecord = (r: JournalRecord): JournalEntry => ({
  id: r.id,
  profileId: r.profile_id,
  strategyId: r.strategy_id,
  draftId: r.draft_id,
  idempotencyKey: r.idempotency_key,
  requestBody: r.request_body,
  state: r.state,
  versionId: r.version_id,
  location: r.location,
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  attempts: r.attempts,
});

export type JournalRepository = ReturnType<typeof journalRepository>;

export interface NewJournalEntry {
  profileId: string;
  strategyId: string;
  draftId?: string | null;
  /**
   * For a draft executed again: the version it became before, as the manager named it ("Execute
   * again"). A draft that became a version is journaled again only under that version's name.
   */
  againAfter?: string | null;
  idempotencyKey: string;
  requestBody: string;
  id?: string;
}

/**
 * The journal's answer to a new execution: journaled, or not because another of the strategy is
 * in flight (`blocking`), or because the draft already became a version the caller did not name
 * (`executedAs`). Nothing is written unless `created`.
 */
export type JournalClaim =
  { created: JournalEntry } | { blocking: JournalEntry } | { executedAs: string };

/**
 * The execution journal. Every write commits with synchronous=FULL (the WAL is fsynced before
 * the call returns), so an entry written before a request is sent survives a power cut; the rest
 * of the store runs with NORMAL for speed.
 */
export function journalRepository({ db, now }: RepositoryContext) {
  const insert = db.prepare(
    `INSERT INTO execution_journal (id, profile_id, strategy_id, draft_id, idempotency_key,
       request_body, state, created_at, updated_at, attempts)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, 0)`,
  );
  // Prepared on first use: a file opened at an earlier schema (tests of older migrations) has
  // no draft_claim column.
  let claimStatements: ReturnType<typeof prepareClaims> | null = null;
  const prepareClaims = () => ({
    insert: db.prepare(
      `INSERT INTO execution_journal (id, profile_id, strategy_id, draft_id, draft_claim,
         idempotency_key, request_body, state, created_at, updated_at, attempts)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, 0)`,
    ),
    // What a draft became: its latest accepted execution (journal_by_draft finds its entries).
    executedVersion: db
      .prepare<[string], string>(
        `SELECT version_id FROM execution_journal
         WHERE draft_id = ? AND state = 'accepted' AND version_id IS NOT NULL
         ORDER BY updated_at DESC, rowid DESC LIMIT 1`,
      )
      .pluck(),
  });
  const claims = () => (claimStatements ??= prepareClaims());
  // Only from pending (the first send) or unknown (a retry): two processes retrying one entry
  // cannot both send it.
  const markSent = db.prepare(
    `UPDATE execution_journal SET state = 'sent', attempts = attempts + 1, error = NULL,
       updated_at = ? WHERE id = ? AND state IN ('pending', 'unknown')`,
  );
  const markAccepted = db.prepare(
    `UPDATE execution_journal SET state = 'accepted', version_id = ?, location = ?, error = NULL,
       updated_at = ? WHERE id = ?`,
  );
  const markFailed = db.prepare(
    'UPDATE execution_journal SET state = ?, error = ?, updated_at = ? WHERE id = ?',
  );
  // Only from pending: an entry that may have left is never said to be unsent.
  const withdraw = db.prepare(
    `UPDATE execution_journal SET state = 'rejected', error = ?, updated_at = ?
       WHERE id = ? AND state = 'pending'`,
  );
  const markDismissed = db.prepare(
    `UPDATE execution_journal SET state = 'dismissed', updated_at = ? WHERE id = ?`,
  );
  const selectOne = db.prepare<[string], JournalRecord>(
    'SELECT * FROM execution_journal WHERE id = ?',
  );
  const selectInFlight = db.prepare<[], JournalRecord>(
    `SELECT * FROM execution_journal WHERE state IN ('pending', 'sent', 'unknown')
     ORDER BY created_at, rowid`,
  );
  const selectInFlightForStrategy = db.prepare<[string, string], JournalRecord>(
    `SELECT * FROM execution_journal WHERE profile_id = ? AND strategy_id = ?
       AND state IN ('pending', 'sent', 'unknown')
     ORDER BY created_at, rowid LIMIT 1`,
  );
  // journal_by_state answers this without reading the entries.
  const countUnknown = db
    .prepare<[], number>("SELECT count(*) FROM execution_journal WHERE state = 'unknown'")
    .pluck();
  const selectForStrategy = db.prepare<[string, string], JournalRecord>(
    `SELECT * FROM execution_journal WHERE profile_id = ? AND strategy_id = ?
     ORDER BY created_at DESC, rowid DESC`,
  );

  /** Runs one write with the WAL fsynced at commit, then returns to the connection's default. */
  function durably<T>(write: () => T): T {
    // Inside a caller's transaction (the activity log's record) the caller commits: durably for
    // a request about to be sent, without the fsync for an answer (execution/journal.ts).
    if (db.inTransaction) return write();
    db.pragma('synchronous = FULL');
    try {
      return write();
    } finally {
      db.pragma('synchronous = NORMAL');
    }
  }

  function changed(id: string, changes: number): JournalEntry {
    if (changes === 0) throw new Error(`No execution journal entry ${id}.`);
    return fromRecord(selectOne.get(id)!);
  }

  function insertPending(input: NewJournalEntry, draftClaim: string | null = null): string {
    const id = input.id ?? randomUUID();
    const at = now();
    const { profileId, strategyId, idempotencyKey, requestBody } = input;
    const draftId = input.draftId ?? null;
    if (draftClaim === null)
      insert.run(id, profileId, strategyId, draftId, idempotencyKey, requestBody, at, at);
    else
      claims().insert.run(
        id,
        profileId,
        strategyId,
        draftId,
        draftClaim,
        idempotencyKey,
        requestBody,
        at,
        at,
      );
    return id;
  }

  /**
   * The checks and the insert in one IMMEDIATE transaction: the write lock is taken before the
   * checks, so no other connection (another window, another process) can slip an entry in
   * between. The claim written with the entry is the database's own guarantee besides: its
   * unique indexes (migration 006) refuse a second entry of the strategy in flight, and a second
   * live execution of the draft after the same version, whoever writes it.
   */
  const claimExecution = db.transaction(
    (
      input: NewJournalEntry,
    ): { id: string } | { blocking: JournalRecord } | { executedAs: string } => {
      const blocking = selectInFlightForStrategy.get(input.profileId, input.strategyId);
      if (blocking) return { blocking };
      if (!input.draftId) return { id: insertPending(input) };
      const executed = claims().executedVersion.get(input.draftId) ?? null;
      if (executed !== null && executed !== (input.againAfter ?? null))
        return { executedAs: executed };
      return { id: insertPending(input, `${input.draftId} after ${executed ?? 'none'}`) };
    },
  );

  return {
    /** Journals an execute request before it is sent (state pending). */
    create(input: NewJournalEntry): JournalEntry {
      const id = durably(() => insertPending(input));
      return fromRecord(selectOne.get(id)!);
    },
    /**
     * Journals an execute request unless another execution of the same strategy is in flight
     * (pending, sent or unknown), or its draft already became a version other than
     * `againAfter`; then says so instead, and writes nothing.
     */
    createExclusive(input: NewJournalEntry): JournalClaim {
      const result = durably(() => claimExecution.immediate(input));
      if ('blocking' in result) return { blocking: fromRecord(result.blocking) };
      if ('executedAs' in result) return result;
      return { created: fromRecord(selectOne.get(result.id)!) };
    },
    /**
     * Just before each send (the first or a retry with the same key): counts the attempt. Null
     * when the entry is no longer pending or unknown (another process sent it meanwhile).
     */
    markSent(id: string): JournalEntry | null {
      const sent = durably(() => markSent.run(now(), id)).changes;
      if (sent === 0 && selectOne.get(id)) return null;
      return changed(id, sent);
    },
    /**
     * The service accepted (202). `alongside` (the version as the answer gave it) is written in
     * the same transaction: a crash leaves both or neither, never a stored version its
     * execution does not name.
     */
    markAccepted(
      id: string,
      result: { versionId: string; location: string | null },
      alongside?: () => void,
    ): JournalEntry {
      const changes = durably(() =>
        db.transaction(() => {
          alongside?.();
          return markAccepted.run(result.versionId, result.location, now(), id).changes;
        })(),
      );
      return changed(id, changes);
    },
    /** The version a draft last became (its latest accepted execution), or null. */
    executedVersionOf(draftId: string): string | null {
      return claims().executedVersion.get(draftId) ?? null;
    },
    /** An ambiguous failure: the service may or may not have created the version. */
    markUnknown(id: string, error: string): JournalEntry {
      return changed(id, durably(() => markFailed.run('unknown', error, now(), id)).changes);
    },
    /** The service answered with a refusal (4xx): nothing was created. */
    markRejected(id: string, error: string): JournalEntry {
      return changed(id, durably(() => markFailed.run('rejected', error, now(), id)).changes);
    },
    /**
     * A pending entry that will not be sent (its batch stopped before its turn, the disk refused
     * it, the app stopped before sending it): rejected with its words, attempts 0. False when it
     * is no longer pending.
     */
    withdraw(id: string, error: string): boolean {
      return withdraw.run(error, now(), id).changes === 1;
    },
    /** The manager leaves an unknown entry as it is; it no longer blocks the strategy. */
    markDismissed(id: string): JournalEntry {
      return changed(id, durably(() => markDismissed.run(now(), id)).changes);
    },
    get(id: string): JournalEntry | null {
      const r = selectOne.get(id);
      return r ? fromRecord(r) : null;
    },
    /** Entries whose outcome is not known yet (pending, sent, unknown), a profile's or all. */
    listInFlight(profileId?: string): JournalEntry[] {
      const all = selectInFlight.all().map(fromRecord);
      return profileId === undefined ? all : all.filter((e) => e.profileId === profileId);
    },
    listForStrategy(profileId: string, strategyId: string): JournalEntry[] {
      return selectForStrategy.all(profileId, strategyId).map(fromRecord);
    },
    /** How many executions need the manager (outcome unknown): the status bar's count. */
    countUnknown(): number {
      return countUnknown.get() ?? 0;
    },
  };
}
