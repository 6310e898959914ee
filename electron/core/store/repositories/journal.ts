import { randomUUID } from 'node:crypto';
import type { RepositoryContext } from './context';

/**
 * pending: journaled, not yet sent. sent: on the wire. accepted: 202 received.
 * unknown: ambiguous failure (timeout, reset, 5xx), to reconcile. rejected: 4xx, nothing created.
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
  idempotencyKey: string;
  requestBody: string;
  id?: string;
}

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
  const markSent = db.prepare(
    `UPDATE execution_journal SET state = 'sent', attempts = attempts + 1, error = NULL,
       updated_at = ? WHERE id = ?`,
  );
  const markAccepted = db.prepare(
    `UPDATE execution_journal SET state = 'accepted', version_id = ?, location = ?, error = NULL,
       updated_at = ? WHERE id = ?`,
  );
  const markFailed = db.prepare(
    'UPDATE execution_journal SET state = ?, error = ?, updated_at = ? WHERE id = ?',
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
  const selectForStrategy = db.prepare<[string, string], JournalRecord>(
    `SELECT * FROM execution_journal WHERE profile_id = ? AND strategy_id = ?
     ORDER BY created_at DESC, rowid DESC`,
  );

  /** Runs one write with the WAL fsynced at commit, then returns to the connection's default. */
  function durably<T>(write: () => T): T {
    // Inside a caller's transaction (the activity log's record) the caller commits durably.
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

  function insertPending(input: NewJournalEntry): string {
    const id = input.id ?? randomUUID();
    const at = now();
    insert.run(
      id,
      input.profileId,
      input.strategyId,
      input.draftId ?? null,
      input.idempotencyKey,
      input.requestBody,
      at,
      at,
    );
    return id;
  }

  /**
   * The check and the insert in one IMMEDIATE transaction: the write lock is taken before the
   * check, so no other connection (another window, another process) can slip an entry in between.
   */
  const insertUnlessInFlight = db.transaction(
    (input: NewJournalEntry): { id: string } | { blocking: JournalRecord } => {
      const blocking = selectInFlightForStrategy.get(input.profileId, input.strategyId);
      return blocking ? { blocking } : { id: insertPending(input) };
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
     * (pending, sent or unknown); then returns that one instead, and writes nothing.
     */
    createExclusive(
      input: NewJournalEntry,
    ): { created: JournalEntry } | { blocking: JournalEntry } {
      const result = durably(() => insertUnlessInFlight.immediate(input));
      return 'blocking' in result
        ? { blocking: fromRecord(result.blocking) }
        : { created: fromRecord(selectOne.get(result.id)!) };
    },
    /** Just before each send (the first or a retry with the same key): counts the attempt. */
    markSent(id: string): JournalEntry {
      return changed(id, durably(() => markSent.run(now(), id)).changes);
    },
    markAccepted(id: string, result: { versionId: string; location: string | null }): JournalEntry {
      return changed(
        id,
        durably(() => markAccepted.run(result.versionId, result.location, now(), id)).changes,
      );
    },
    /** An ambiguous failure: the service may or may not have created the version. */
    markUnknown(id: string, error: string): JournalEntry {
      return changed(id, durably(() => markFailed.run('unknown', error, now(), id)).changes);
    },
    /** The service answered with a refusal (4xx): nothing was created. */
    markRejected(id: string, error: string): JournalEntry {
      return changed(id, durably(() => markFailed.run('rejected', error, now(), id)).changes);
    },
    /** The manager leaves an unknown entry as it is; it no longer blocks the strategy. */
    markDismissed(id: string): JournalEntry {
      return changed(id, durably(() => markDismissed.run(now(), id)).changes);
    },
    get(id: string): JournalEntry | null {
      const r = selectOne.get(id);
      return r ? fromRecord(r) : null;
    },
    /** Entries whose outcome is not known yet (pending, sent, unknown): reconciled at start-up. */
    listInFlight(): JournalEntry[] {
      return selectInFlight.all().map(fromRecord);
    },
    listForStrategy(profileId: string, strategyId: string): JournalEntry[] {
      return selectForStrategy.all(profileId, strategyId).map(fromRecord);
    },
  };
}
