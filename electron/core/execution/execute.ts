import { randomUUID } from 'node:crypto';
import type { ExecuteRequest, Version } from '../../../shared/domain/resources';
import type { JournalEntry } from '../store';
import type {
  JournalClaim,
  JournalRepository,
  NewJournalEntry,
} from '../store/repositories/journal';

/**
 * The execution journal: every execute request is written down, with its
 * Idempotency-Key, before it is sent, and its outcome after. A request is
 * only ever re-sent with the same key and the same body, so the service can
 * never accept one intended execution twice.
 *
 * States: pending (journaled) -> sent (on the wire) -> accepted (202) |
 * rejected (a definite refusal) | unknown (no definite answer: timeout, reset,
 * 5xx, or the app stopped). An unknown entry is resolved by the manager:
 * retry with the same key (the service replays its first answer if it had
 * accepted) or dismiss it. It is never re-sent on its own: executing hours
 * later at other prices is not what the manager asked for.
 */
export type JournalPort = Pick<
  JournalRepository,
  'markSent' | 'markDismissed' | 'get' | 'listInFlight'
> & {
  /**
   * `locationNote`: why the service's Location is not what is followed, for the activity log.
   * `alongside`: what is stored in the same transaction (the version the 202 carried).
   */
  markAccepted(id: string, result: AcceptedResult, alongside?: () => void): JournalEntry;
  /** `confirmation`: what the manager was shown and agreed to, for a journal that keeps it. */
  createExclusive(
    input: NewJournalEntry,
    confirmation?: ExecutionConfirmation | null,
  ): JournalClaim;
  /** `cause`: the failure itself, for a journal that keeps more of it than its words. */
  markUnknown(id: string, error: string, cause?: unknown): JournalEntry;
  markRejected(id: string, error: string, cause?: unknown): JournalEntry;
};

/** What the confirmation adds to an execution: the prediction shown and what was acknowledged. */
export interface ExecutionConfirmation {
  predictionId: string;
  /** Sent from the confirmation dialog (false: executed without one). */
  confirmed: boolean;
  /** The manager acknowledged a target in doubt (stale, unknown, or one the service no longer knew). */
  acknowledgedStale: boolean;
  /** The service no longer knew the target version when the execution was confirmed. */
  targetUnconfirmed?: boolean;
  /** Why the target was in doubt when confirmed (shared/draft TargetDoubt); empty: it was not. */
  doubts?: readonly string[];
  /** The doubt had to be acknowledged before sending (the desk refused it otherwise). */
  acknowledgementNeeded?: boolean;
}

/** What an accepted execution's journal entry keeps of the answer. */
export interface AcceptedResult {
  versionId: string;
  /** Where the version is followed. */
  location: string;
  /** The service's own Location, when the app follows something else, and why. */
  givenLocation?: string | null;
  locationNote?: string | null;
}

export interface ExecutePort {
  executeVersion(
    strategyId: string,
    body: ExecuteRequest,
    idempotencyKey: string,
  ): Promise<{
    version: Version;
    location: string;
    givenLocation?: string | null;
    locationNote?: string | null;
  }>;
}

export interface ExecutionOutcome {
  entry: JournalEntry;
  version: Version;
  location: string;
}

export interface ExecutionJournalDeps {
  journal: JournalPort;
  /**
   * Stores the accepted version, its orders and positions, and what depends on it (the
   * prediction's answer), in the transaction that marks the entry accepted.
   */
  saveAcceptedVersion(entry: JournalEntry, version: Version, location: string): void;
  /** Starts following the version until its rebalance ends. */
  startTracking(entry: JournalEntry, version: Version, location: string): void;
  /** True when a failure leaves it unknown whether the service accepted the request. */
  isAmbiguous(error: unknown): boolean;
  describe(error: unknown): string;
}

export class ExecutionJournal {
  /** Profile/strategy pairs with a request on the wire in this process: a second click sends nothing. */
  private readonly sending = new Set<string>();

  constructor(private readonly deps: ExecutionJournalDeps) {}

  /** Entries of a profile whose outcome is not known yet. */
  inFlight(profileId: string): JournalEntry[] {
    return this.deps.journal.listInFlight().filter((e) => e.profileId === profileId);
  }

  /** Journals a new execution and sends it once. */
  async execute(
    client: ExecutePort,
    request: {
      profileId: string;
      strategyId: string;
      draftId: string | null;
      /** "Execute again": the version the draft became before (null: its first execution). */
      againAfter?: string | null;
      body: ExecuteRequest;
      confirmation?: ExecutionConfirmation | null;
    },
  ): Promise<ExecutionOutcome> {
    if (this.sending.has(sendingKey(request))) throw new ExecutionBlockedError('sent');
    // The checks (nothing of the strategy in flight, the draft not executed since) and the
    // insert are one write transaction in the journal, its claim unique in the database.
    const journaled = this.deps.journal.createExclusive(
      {
        profileId: request.profileId,
        strategyId: request.strategyId,
        draftId: request.draftId,
        againAfter: request.againAfter ?? null,
        idempotencyKey: randomUUID(),
        requestBody: JSON.stringify(request.body),
      },
      request.confirmation ?? null,
    );
    if ('blocking' in journaled) throw new ExecutionBlockedError(journaled.blocking.state);
    if ('executedAs' in journaled) throw new DraftExecutedError(journaled.executedAs);
    return this.send(client, journaled.created);
  }

  /** Sends an unknown entry again, with its own key and body. */
  async retry(client: ExecutePort, entryId: string): Promise<ExecutionOutcome> {
    const entry = this.deps.journal.get(entryId);
    if (!entry) throw new Error(`There is no execution ${entryId} in the journal.`);
    if (entry.state !== 'unknown') {
      throw new Error(
        `This execution is ${entry.state}: only an execution whose outcome is unknown can be sent again.`,
      );
    }
    if (this.sending.has(sendingKey(entry))) throw new ExecutionBlockedError('sent');
    return this.send(client, entry);
  }

  /** The manager leaves an unknown entry as it is. */
  dismiss(entryId: string): JournalEntry {
    const entry = this.deps.journal.get(entryId);
    if (!entry) throw new Error(`There is no execution ${entryId} in the journal.`);
    if (entry.state !== 'unknown')
      throw new Error('Only an execution whose outcome is unknown can be dismissed.');
    return this.deps.journal.markDismissed(entryId);
  }

  /**
   * At start-up, entries cut off by a stop or a crash become unknown: a pending
   * one was never sent, a sent one may or may not have reached the service.
   * Nothing is sent here; the manager sees them and chooses.
   */
  reconcileAtStartup(): JournalEntry[] {
    for (const entry of this.deps.journal.listInFlight()) {
      if (entry.state === 'pending') {
        this.deps.journal.markUnknown(
          entry.id,
          'The app stopped before sending this execution; nothing was sent.',
        );
      } else if (entry.state === 'sent') {
        this.deps.journal.markUnknown(
          entry.id,
          'The app stopped before the service answered; the execution may or may not have been accepted.',
        );
      }
    }
    return this.deps.journal.listInFlight();
  }

  private async send(client: ExecutePort, entry: JournalEntry): Promise<ExecutionOutcome> {
    this.sending.add(sendingKey(entry));
    try {
      const sent = this.deps.journal.markSent(entry.id);
      // Another process sent it first (a retry from a second window on the same data).
      if (!sent) throw new ExecutionBlockedError('sent');
      const body = JSON.parse(sent.requestBody) as ExecuteRequest;
      let outcome: Awaited<ReturnType<ExecutePort['executeVersion']>>;
      try {
        outcome = await client.executeVersion(sent.strategyId, body, sent.idempotencyKey);
      } catch (error) {
        if (this.deps.isAmbiguous(error))
          this.deps.journal.markUnknown(sent.id, this.deps.describe(error), error);
        else this.deps.journal.markRejected(sent.id, this.deps.describe(error), error);
        throw error;
      }
      // Stored in the transaction that says accepted, however the 202 came (the first send or
      // a retry after a crash): a crash leaves the entry "sent" with nothing stored, and a retry
      // with the same key replays the same version.
      const accepted = this.deps.journal.markAccepted(
        sent.id,
        {
          versionId: outcome.version.id,
          location: outcome.location,
          ...(outcome.locationNote && {
            givenLocation: outcome.givenLocation ?? null,
            locationNote: outcome.locationNote,
          }),
        },
        () => this.deps.saveAcceptedVersion(sent, outcome.version, outcome.location),
      );
      this.deps.startTracking(accepted, outcome.version, outcome.location);
      return { entry: accepted, version: outcome.version, location: outcome.location };
    } finally {
      this.sending.delete(sendingKey(entry));
    }
  }
}

const sendingKey = (e: { profileId: string; strategyId: string }) =>
  `${e.profileId}/${e.strategyId}`;

/** A draft that already became a version, executed again without naming it ("Execute again"). */
export class DraftExecutedError extends Error {
  constructor(readonly versionId: string) {
    super(
      `This draft was already executed as version ${versionId}. Nothing was sent; choose "Execute again" to execute it once more.`,
    );
    this.name = 'DraftExecutedError';
  }
}

/** A new execution of a strategy while an earlier one has no definite outcome. */
export class ExecutionBlockedError extends Error {
  constructor(readonly state: string) {
    super(
      state === 'unknown'
        ? 'An earlier execution of this strategy has an unknown outcome: retry it with the same key or dismiss it first.'
        : 'Another execution of this strategy is already in flight; wait for its answer.',
    );
    this.name = 'ExecutionBlockedError';
  }
}
