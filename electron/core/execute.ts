import { randomUUID } from 'node:crypto';
import type { ExecuteRequest, Version } from '../../shared/domain/resources';

/**
 * The execution journal: every execute request is written down, with its
 * Idempotency-Key, before it is sent, and its outcome after. An execution is
 * never sent twice with different keys, so the service can never accept one
 * intended execution twice.
 *
 * States: pending (written, being sent) -> accepted (202) | rejected (the
 * service said no, definitively) | unknown (no definite answer: timeout,
 * reset, 5xx, or the app stopped while it was in flight). An unknown entry is
 * resolved only by the manager: retry with the same key (the service replays
 * its first answer if it had accepted) or dismiss it.
 */
export type JournalState = 'pending' | 'accepted' | 'rejected' | 'unknown' | 'dismissed';

export interface JournalEntry {
  id: string;
  profileId: string;
  strategyId: string;
  draftId: string | null;
  idempotencyKey: string;
  requestBody: string;
  state: JournalState;
  versionId: string | null;
  location: string | null;
  error: string | null;
  attempts: number;
  createdAt: string;
  updatedAt: string;
}

export interface JournalPort {
  /** Must be durable when it returns (synchronous=FULL). */
  insert(entry: JournalEntry): void;
  update(
    id: string,
    patch: Partial<Pick<JournalEntry, 'state' | 'versionId' | 'location' | 'error' | 'attempts'>>,
  ): void;
  get(id: string): JournalEntry | undefined;
  /** Entries not yet known to be accepted, rejected or dismissed. */
  listInFlight(profileId?: string): JournalEntry[];
}

export interface ExecutePort {
  executeVersion(
    strategyId: string,
    body: ExecuteRequest,
    idempotencyKey: string,
  ): Promise<{ version: Version; location: string }>;
}

export interface ExecutionOutcome {
  entry: JournalEntry;
  version: Version;
  location: string;
}

export interface ExecutionJournalDeps {
  journal: JournalPort;
  /** Stores the accepted version, its orders and positions in one transaction. */
  saveAcceptedVersion(entry: JournalEntry, version: Version, location: string): void;
  /** Starts following the version until its rebalance ends. */
  startTracking(entry: JournalEntry, version: Version, location: string): void;
  /** True when a failure leaves it unknown whether the service accepted the request. */
  isAmbiguous(error: unknown): boolean;
  describe(error: unknown): string;
  now?: () => string;
}

export class ExecutionJournal {
  /** Strategies with a request on the wire: a second click never sends a second request. */
  private readonly sending = new Set<string>();
  private readonly now: () => string;

  constructor(private readonly deps: ExecutionJournalDeps) {
    this.now = deps.now ?? (() => new Date().toISOString());
  }

  /** Journals a new execution and sends it once. */
  async execute(
    client: ExecutePort,
    request: {
      profileId: string;
      strategyId: string;
      draftId: string | null;
      body: ExecuteRequest;
    },
  ): Promise<ExecutionOutcome> {
    const blocking = this.deps.journal
      .listInFlight(request.profileId)
      .find((e) => e.strategyId === request.strategyId);
    if (blocking) throw new ExecutionBlockedError(blocking);
    const at = this.now();
    const entry: JournalEntry = {
      id: randomUUID(),
      profileId: request.profileId,
      strategyId: request.strategyId,
      draftId: request.draftId,
      idempotencyKey: randomUUID(),
      requestBody: JSON.stringify(request.body),
      state: 'pending',
      versionId: null,
      location: null,
      error: null,
      attempts: 0,
      createdAt: at,
      updatedAt: at,
    };
    this.deps.journal.insert(entry);
    return this.send(client, entry);
  }

  /** Sends an unknown entry again with the same key and the same body. */
  async retry(client: ExecutePort, entryId: string): Promise<ExecutionOutcome> {
    const entry = this.deps.journal.get(entryId);
    if (!entry) throw new Error(`No execution journal entry ${entryId}`);
    if (entry.state !== 'unknown') {
      throw new Error(
        `This execution is ${entry.state}, not unknown: only an execution whose outcome is unknown can be sent again`,
      );
    }
    return this.send(client, entry);
  }

  /** The manager decides an unknown entry needs no more attention. */
  dismiss(entryId: string): void {
    const entry = this.deps.journal.get(entryId);
    if (!entry) throw new Error(`No execution journal entry ${entryId}`);
    if (entry.state !== 'unknown') throw new Error(`Only an unknown execution can be dismissed`);
    this.deps.journal.update(entryId, { state: 'dismissed' });
  }

  /**
   * At start-up: an entry still pending was cut off mid-flight by a stop or a
   * crash, so whether the service accepted it is unknown. It is never re-sent
   * on its own: the manager sees it and chooses.
   */
  reconcileAtStartup(): JournalEntry[] {
    const left = this.deps.journal.listInFlight().filter((e) => e.state === 'pending');
    for (const entry of left) {
      this.deps.journal.update(entry.id, {
        state: 'unknown',
        error: 'The app stopped before the service answered this execution.',
      });
    }
    return this.deps.journal.listInFlight();
  }

  private async send(client: ExecutePort, entry: JournalEntry): Promise<ExecutionOutcome> {
    if (this.sending.has(entry.strategyId)) throw new ExecutionBlockedError(entry);
    this.sending.add(entry.strategyId);
    try {
      const attempts = entry.attempts + 1;
      this.deps.journal.update(entry.id, { state: 'pending', attempts });
      const body = JSON.parse(entry.requestBody) as ExecuteRequest;
      let outcome: { version: Version; location: string };
      try {
        outcome = await client.executeVersion(entry.strategyId, body, entry.idempotencyKey);
      } catch (error) {
        const state: JournalState = this.deps.isAmbiguous(error) ? 'unknown' : 'rejected';
        this.deps.journal.update(entry.id, { state, error: this.deps.describe(error) });
        throw error;
      }
      const accepted = { ...entry, attempts, state: 'accepted' as const };
      this.deps.saveAcceptedVersion(accepted, outcome.version, outcome.location);
      this.deps.journal.update(entry.id, {
        state: 'accepted',
        versionId: outcome.version.id,
        location: outcome.location,
        error: null,
      });
      const stored = { ...accepted, versionId: outcome.version.id, location: outcome.location };
      this.deps.startTracking(stored, outcome.version, outcome.location);
      return { entry: stored, ...outcome };
    } finally {
      this.sending.delete(entry.strategyId);
    }
  }
}

/** A new execution of a strategy while an earlier one has no definite outcome. */
export class ExecutionBlockedError extends Error {
  constructor(readonly entry: JournalEntry) {
    super(
      entry.state === 'pending'
        ? 'An execution of this strategy is being sent; wait for its answer.'
        : 'An earlier execution of this strategy has an unknown outcome: retry it with the same key or dismiss it first.',
    );
    this.name = 'ExecutionBlockedError';
  }
}
