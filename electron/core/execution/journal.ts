import { actionWords } from '../../../shared/draft/words';
import type { JournalEntry, Store } from '../store';
import type { NewActivityEntry } from '../store/repositories/activity';
import type {
  JournalClaim,
  JournalRepository,
  NewJournalEntry,
} from '../store/repositories/journal';
import type { ExecutionRestrictionCheck } from '../restrictions';
import type { ExecutionOrigin } from './request';

/**
 * The execution journal with its activity entries: each journal write that marks a step of an
 * execution (sent, sent again, answered, dismissed) appends its entry in the same transaction.
 * An entry journaled ahead of its send (`arm`) gets its execution-sent entry when it is sent,
 * and none when it is withdrawn unsent. Executing (execute.ts) writes its steps through
 * this port, never to the journal repository itself.
 */

export type JournalPort = Pick<
  JournalRepository,
  'markDismissed' | 'get' | 'listInFlight' | 'withdraw'
> & {
  /**
   * `locationNote`: why the service's Location is not what is followed, for the activity log.
   * `alongside`: what is stored in the same transaction (the version the 202 carried).
   */
  markAccepted(id: string, result: AcceptedResult, alongside?: () => void): JournalEntry;
  /**
   * Journals a request to send (pending), its claim unique (execute.ts, `arm`): made durable
   * (`store.durable()`) before it is sent (`markSent`). `confirmation`: its prediction names the
   * entry from now on. `alongside`: written in the same transaction (a batch's item naming its
   * entry). Committed without its own fsync. No activity entry yet: the execution-sent entry is
   * written when it is sent, none when it is withdrawn unsent.
   */
  arm(
    input: NewJournalEntry,
    confirmation?: ExecutionConfirmation | null,
    alongside?: (entryId: string) => void,
  ): JournalClaim;
  /**
   * Just before each send: the first (from pending, with its execution-sent entry: what the
   * manager saw and acknowledged, `first`) or a retry with the same key (from unknown, with an
   * execution-retried entry). Null when another process sent it meanwhile. A first send's commit
   * has no fsync of its own: its entry was durable pending, and a stop between the commit and
   * the request leaves it "sent", so unknown after a restart, never re-sent on its own.
   * `alongside`: written in the same transaction (a batch's item moving to sending); throwing
   * there leaves the entry as it was.
   */
  markSent(id: string, first?: FirstSend, alongside?: () => void): JournalEntry | null;
  /** `cause`: the failure itself, for a journal that keeps more of it than its words. */
  markUnknown(id: string, error: string, cause?: unknown): JournalEntry;
  markRejected(id: string, error: string, cause?: unknown): JournalEntry;
};

/** What a first send's activity entry keeps besides the request. */
export interface FirstSend {
  /** What the manager was shown and agreed to, for a journal that keeps it. */
  confirmation?: ExecutionConfirmation | null;
  /** Where the rows came from (a batch is named in the activity entry). */
  origin?: ExecutionOrigin;
  /** The restrictions in force (their list's hash), what broke them, the override given. */
  restrictions?: ExecutionRestrictionCheck['entry'];
}

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

/** A failure with what the service said (kind, status), as the activity entry keeps it. */
export interface DescribedFailure {
  kind: string;
  message: string;
  status?: number | undefined;
  serviceMessage?: string | undefined;
}

/**
 * `describe`: what the desk makes of a failure (its kind, status and the service's words), kept
 * in the answer's entry beside the journal's text.
 */
export function recordingJournal(
  store: Store,
  describe: (failure: unknown) => DescribedFailure,
): JournalPort {
  const journal = store.journal;
  const profileName = (profileId: string) => store.profiles.get(profileId)?.name ?? '';
  const sentSeq = (journalId: string) => store.activity.executionSentSeq(journalId);

  const failureOf = (message: string, cause: unknown) => {
    const described = cause === undefined ? null : describe(cause);
    return {
      kind: described?.kind ?? null,
      // The journal's own words: what the manager saw for this execution.
      message,
      status: described?.status ?? null,
      serviceMessage: described?.serviceMessage ?? null,
    };
  };

  const answered = (
    entry: JournalEntry,
    result: 'accepted' | 'rejected' | 'unknown',
    fields: Record<string, unknown>,
  ) =>
    store.activity.record((append) =>
      append({
        profileId: entry.profileId,
        kind: 'execution-answered',
        strategyId: entry.strategyId,
        versionId: entry.versionId,
        refersTo: sentSeq(entry.id),
        payload: {
          profileName: profileName(entry.profileId),
          journalId: entry.id,
          attempt: entry.attempts,
          result,
          ...fields,
        },
      }),
    );

  const port: JournalPort = {
    arm(input, confirmation, alongside) {
      return store.activity.record(() => {
        const result = journal.createExclusive(input);
        if (!('created' in result)) return result;
        // The prediction names its execution from the start: however the 202 comes (the first
        // send, a retry after a crash), its answer is compared with this prediction.
        if (confirmation)
          store.predictions.linkJournal(confirmation.predictionId, result.created.id);
        alongside?.(result.created.id);
        return result;
      }, NO_FSYNC);
    },
    markSent(id, first, alongside) {
      // Read once: nothing runs between this read and the write below (the data folder is this
      // process's alone), and the write is conditional on it still being pending or unknown.
      const before = journal.get(id);
      // A first send follows the fsync that made its entry durable pending; a retry is on disk
      // before it is sent again.
      const retry = before?.state === 'unknown';
      return store.activity.record(
        (append) => {
          const entry = journal.markSent(id);
          if (!entry) return null;
          alongside?.();
          // The first send: the execution-sent entry, what the manager saw and acknowledged.
          if (before?.state === 'pending') {
            append(executionSent(store, entry, first ?? {}));
            return entry;
          }
          // A later send is a retry.
          append({
            profileId: entry.profileId,
            kind: 'execution-retried',
            strategyId: entry.strategyId,
            refersTo: sentSeq(id),
            payload: {
              profileName: profileName(entry.profileId),
              journalId: id,
              attempt: entry.attempts,
              idempotencyKey: entry.idempotencyKey,
              previousError: before?.error ?? null,
            },
          });
          return entry;
        },
        retry ? {} : NO_FSYNC,
      );
    },
    withdraw: (id, error) => journal.withdraw(id, error),
    markAccepted(id, result, alongside) {
      return store.activity.record(() => {
        const entry = journal.markAccepted(id, result, alongside);
        const version = store.versions.get(entry.profileId, result.versionId);
        answered(entry, 'accepted', {
          versionId: result.versionId,
          status: version?.status ?? null,
          location: result.location,
          // Only when so: what the service said, and why the app follows another address.
          ...(result.locationNote && {
            givenLocation: result.givenLocation ?? null,
            locationNote: result.locationNote,
          }),
        });
        return entry;
      }, NO_FSYNC);
    },
    markUnknown(id, error, cause) {
      return store.activity.record(() => {
        const entry = journal.markUnknown(id, error);
        answered(entry, 'unknown', { error: failureOf(error, cause) });
        return entry;
      }, NO_FSYNC);
    },
    markRejected(id, error, cause) {
      return store.activity.record(() => {
        const entry = journal.markRejected(id, error);
        answered(entry, 'rejected', { error: failureOf(error, cause) });
        return entry;
      }, NO_FSYNC);
    },
    markDismissed(id) {
      return store.activity.record((append) => {
        const before = journal.get(id);
        const entry = journal.markDismissed(id);
        append({
          profileId: entry.profileId,
          kind: 'execution-dismissed',
          strategyId: entry.strategyId,
          refersTo: sentSeq(id),
          payload: {
            profileName: profileName(entry.profileId),
            journalId: id,
            attempts: entry.attempts,
            lastError: before?.error ?? null,
          },
        });
        return entry;
      });
    },
    get: (id) => journal.get(id),
    listInFlight: (profileId) => journal.listInFlight(profileId),
  };
  return port;
}

/** The activity entry of an execution's first send. */
function executionSent(
  store: Store,
  entry: JournalEntry,
  { confirmation, origin, restrictions }: FirstSend,
): NewActivityEntry {
  const profile = store.profiles.get(entry.profileId);
  const draft = entry.draftId ? store.drafts.get(entry.draftId) : null;
  const prediction = confirmation ? store.predictions.get(confirmation.predictionId) : null;
  return {
    profileId: entry.profileId,
    kind: 'execution-sent',
    strategyId: entry.strategyId,
    // A batch's execution refers to the batch's review entry (its answers to this one).
    refersTo: origin?.kind === 'batch' ? (origin.reviewSeq ?? null) : null,
    payload: {
      profileName: profile?.name ?? '',
      environment: profile?.environment ?? null,
      baseUrl: profile?.baseUrl ?? null,
      strategyName: store.strategies.nameOf(entry.profileId, entry.strategyId),
      journalId: entry.id,
      draftId: entry.draftId,
      draftName: draft?.name ?? null,
      // Only for a batch's rows: entries of a draft's execution keep their hashed form.
      ...(origin?.kind === 'batch' && { batchId: origin.batchId }),
      idempotencyKey: entry.idempotencyKey,
      requestBody: entry.requestBody,
      confirmed: confirmation?.confirmed ?? false,
      ...(restrictions && { restrictions }),
      prediction: prediction
        ? {
            targetState: prediction.targetState,
            knownVersionId: prediction.knownVersionId,
            // Only when so: entries written before this field keep their hashed form.
            ...(confirmation?.targetUnconfirmed === true && { unknownToService: true }),
            // Why the target was in doubt, and whether the tick was needed: any doubt
            // (unknown, stale, unconfirmed) takes the same tick, which the desk checked.
            ...(confirmation?.doubts !== undefined && {
              doubts: [...confirmation.doubts],
              acknowledgementNeeded: confirmation.acknowledgementNeeded === true,
            }),
            acknowledged:
              confirmation?.confirmed === true &&
              confirmation.acknowledgedStale &&
              confirmation.acknowledgementNeeded !== false,
            positions: prediction.prediction.map((p) => ({
              symbol: p.symbol,
              weight: p.weight,
              oldWeight: p.oldWeight,
              action: p.action,
              heldQuantity: p.heldQuantity,
              sellsAll: p.sellsAll,
              // The words the confirmation showed for the row, the same vocabulary.
              shownAs: actionWords(p),
            })),
          }
        : null,
    },
  };
}

/**
 * A commit without its own fsync inside the commit. A claim is made durable by the caller
 * (`store.durable()`) before its request leaves. An answer rides the next fsync: the WAL keeps it
 * through an app crash; lost with a power cut, its entry reads "sent", which start-up turns into
 * unknown (the manager retries with the same key or dismisses it).
 */
const NO_FSYNC = { fsync: false } as const;
