import { randomUUID } from 'node:crypto';
import type { DeskEvent } from '../../../shared/contract';
import { DeskError, type ExecutePreview } from '../../../shared/views';
import type { ExecuteRequest, Version } from '../../../shared/domain/resources';
import { comparePrediction } from '../../../shared/draft';
import { isServiceError } from '../api';
import { journalEntryView } from '../../../shared/version-views';
import { notFound, toDeskError } from '../errors';
import type { JournalEntry, JournalState, Store } from '../store';
import type { Follower, TrackedVersion } from '../tracking/tracker';
import {
  confirmedRequest,
  prepareTarget,
  readFresh,
  type ConfirmationDeps,
  type ExecutionTarget,
} from './confirmation';
import { DraftExecutedError, ExecutionBlockedError } from './errors';
import {
  recordingJournal,
  type ExecutionConfirmation,
  type FirstSend,
  type JournalPort,
} from './journal';
import type { Confirmation, ExecutionRequest, FreshRead, SendTurn } from './request';

/**
 * Executing a strategy's target rows (a draft's, or a batch's: request.ts), every step in order
 * in this file:
 *
 * 1. confirm: the request the manager saw is still what executing sends now (confirmation.ts),
 *    and its prediction is recorded;
 * 2. claim and journal: the request is written down with its Idempotency-Key and is on disk
 *    before it is sent (the WAL fsynced off the event loop), its claim unique in the database
 *    (one execution of a strategy in flight, one per draft). A draft's is written as sent. A
 *    batch's is written pending and made durable before its turn, while other items are at the
 *    service, then marked sent at its turn without waiting for the disk again; an item whose
 *    turn never comes (the batch stopped) is withdrawn, never sent;
 * 3. send it, once;
 * 4. settle the answer: a 202 stores the version, forgets the unexecuted versions it replaced and
 *    answers the prediction, in the transaction that marks the entry accepted; a refusal naming
 *    an unexecuted version in the way is noted; no definite answer leaves the outcome unknown;
 * 5. start following the version until its rebalance ends (tracking/).
 *
 * Journal states: pending (journaled; a first send marks it sent, in the same transaction for a
 * draft's, at its turn for a batch's; a retry from unknown just before sending) -> sent (on the
 * wire) -> accepted (202) | rejected (a definite refusal, or withdrawn while pending: never sent)
 * | unknown (no definite answer: timeout, reset, 5xx, or the app stopped). A
 * request is only ever re-sent with the same key and body, so the service can never accept one
 * intended execution twice. An unknown entry is resolved by the manager: retry with the same key
 * (the service replays its first answer if it had accepted) or dismiss it. It is never re-sent
 * on its own: executing hours later at other prices is not what the manager asked for. A pending
 * entry found at start-up was not sent if the computer did not restart since (the commit marking
 * it sent precedes the request, and an app crash keeps the WAL); after a restart of the computer
 * that commit may have been lost with the request gone, so it is unknown (boot.ts).
 */

/** The part of the service client executing uses (api/client.ts). */
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

export interface ExecutionDeps extends ConfirmationDeps {
  /** The whole store: each step is journaled with its activity entry, in one transaction. */
  store: Store;
  /** Follows the version until its rebalance ends (tracking/tracker.ts). */
  tracker: Pick<Follower, 'track'>;
  /** The journal changed: announced with what `inFlight` answers now. */
  emit(event: DeskEvent): void;
}

export interface ExecutionOutcome {
  entry: JournalEntry;
  version: Version;
  location: string;
  /** What following the version starts from (already followed unless `followLater`). */
  follow: TrackedVersion;
}

export class Execution {
  /** Profile/strategy pairs with a request on the wire in this process: a second click sends nothing. */
  private readonly sending = new Set<string>();
  private readonly journal: JournalPort;

  constructor(private readonly deps: ExecutionDeps) {
    // Each journal write is recorded with the desk's words for a failure (its kind, its status).
    this.journal = recordingJournal(deps.store, toDeskError);
  }

  /** Entries of a profile whose outcome is not known yet. */
  inFlight(profileId: string): JournalEntry[] {
    return this.deps.store.journal.listInFlight(profileId);
  }

  /**
   * What executing these rows does now (the known target and the strategy read fresh), and the
   * plan key `execute` takes in its confirmation: a batch's review of one strategy. A draft's
   * confirmation is `prepareExecution` (confirmation.ts), which also names its earlier version.
   */
  prepare(target: ExecutionTarget): Promise<ExecutePreview> {
    return prepareTarget(this.deps, target, null);
  }

  /** The fresh read a confirmed request is checked against (request.ts, `freshRead`). */
  readFresh(profileId: string, strategyId: string): Promise<FreshRead> {
    return readFresh(this.deps, profileId, strategyId);
  }

  /** Executes a stored draft: its rows, claimed once per draft (`execute`). */
  async executeDraft(draftId: string, confirmation?: Confirmation): Promise<ExecutionOutcome> {
    const draft = this.deps.store.drafts.get(draftId);
    if (!draft) throw notFound('This draft');
    return this.execute({
      profileId: draft.profileId,
      strategyId: draft.strategyId,
      rows: draft.rows,
      origin: { kind: 'draft', draftId },
      ...(confirmation && { confirmation }),
    });
  }

  /**
   * Executes a strategy's target rows: confirm, claim and journal, send, settle the answer,
   * start following. The rows come from a draft or a batch (request.ts); either way, one
   * strategy has at most one execution in flight, and each is sent once.
   */
  async execute(request: ExecutionRequest): Promise<ExecutionOutcome> {
    const { profileId, strategyId, origin, confirmation } = request;
    // 1. Confirm. Predicted and recorded before sending; compared with the answer after a 202.
    const confirmed = await confirmedRequest(this.deps, request);
    const key = sendingKey(request);
    // Only the call that took the key gives it back: a call refused here leaves it to its holder.
    let holds = false;
    try {
      if (this.sending.has(key)) throw new ExecutionBlockedError('sent');
      this.sending.add(key);
      holds = true;
      // 2. Claim and journal. The checks (nothing of the strategy in flight, the draft not
      // executed since) and the insert are one write transaction, its claim unique.
      const input = {
        profileId,
        strategyId,
        draftId: origin.kind === 'draft' ? origin.draftId : null,
        againAfter: confirmation?.againAfter ?? null,
        idempotencyKey: randomUUID(),
        requestBody: JSON.stringify(confirmed.body),
      };
      // Kept in the execution's activity entry: what the manager saw and acknowledged.
      const first = { confirmation: confirmationOf(confirmed, confirmation), origin };
      const turn = request.sendTurn;
      const journaled = turn
        ? this.journal.arm(input, first.confirmation, turn.journaled)
        : this.journal.claimToSend(input, first);
      if ('blocking' in journaled) throw new ExecutionBlockedError(journaled.blocking.state);
      if ('executedAs' in journaled) throw new DraftExecutedError(journaled.executedAs);
      // Nothing leaves before its entry survives a power cut: the WAL fsynced off the event
      // loop, one fsync for the executions claimed meanwhile (store/wal-sync.ts).
      const entry = journaled.created;
      try {
        await this.deps.store.durable();
      } catch (error) {
        // The disk refused: the request does not leave, and the entry says so.
        const words = 'The journal could not be written to disk; nothing was sent.';
        if (entry.state === 'pending') this.journal.withdraw(entry.id, words);
        else this.journal.markRejected(entry.id, words, error);
        throw error;
      }
      // A batch's turn to send (request.ts): its checks and its journal entry overlap the sends
      // of others; at its turn it is marked sent (the commit comes before the request; the
      // entry was on disk already) and sent.
      const sent = turn ? await this.sendAtTurn(entry, turn, first) : entry;
      // 3 to 5: send, settle the answer, start following.
      return await this.send(sent, request.followLater === true, turn);
    } finally {
      if (holds) this.sending.delete(key);
      this.announce(profileId);
    }
  }

  /** A pending entry at its turn: marked sent, or withdrawn when the turn does not come. */
  private async sendAtTurn(
    entry: JournalEntry,
    turn: SendTurn,
    first: FirstSend,
  ): Promise<JournalEntry> {
    try {
      await turn.take();
    } catch (error) {
      // The batch's words for why (its stop), or plain ones.
      const words = error instanceof Error && error.message ? error.message : 'Not sent.';
      this.journal.withdraw(entry.id, words);
      throw error;
    }
    const sent = this.journal.markSent(entry.id, first);
    if (!sent) throw new ExecutionBlockedError('sent');
    return sent;
  }

  /** Only an execution whose outcome nobody knows may be sent again or dismissed: the refusal says why. */
  private unknownEntry(entryId: string, action: 'sent again' | 'dismissed'): JournalEntry {
    const entry = this.journal.get(entryId);
    if (!entry) throw notFound('This execution');
    if (entry.state !== 'unknown')
      throw new DeskError({
        kind: 'execution-blocked',
        message: `This execution ${JOURNAL_STATE_WORDS[entry.state]}: only one whose outcome is unknown can be ${action}.`,
        details: { state: entry.state },
      });
    return entry;
  }

  /** Sends an unknown entry again, with its own key and body. */
  async retry(entryId: string): Promise<ExecutionOutcome> {
    const entry = this.unknownEntry(entryId, 'sent again');
    const key = sendingKey(entry);
    let holds = false;
    try {
      if (this.sending.has(key)) throw new ExecutionBlockedError('sent');
      this.sending.add(key);
      holds = true;
      const sent = this.journal.markSent(entry.id);
      // Another process sent it first (a retry from a second window on the same data).
      if (!sent) throw new ExecutionBlockedError('sent');
      return await this.send(sent);
    } finally {
      if (holds) this.sending.delete(key);
      this.announce(entry.profileId);
    }
  }

  /** The manager leaves an unknown entry as it is. */
  dismiss(entryId: string): JournalEntry {
    this.unknownEntry(entryId, 'dismissed');
    const dismissed = this.journal.markDismissed(entryId);
    this.announce(dismissed.profileId);
    return dismissed;
  }

  /**
   * At start-up, entries cut off by a stop or a crash: a sent one may or may not have reached the
   * service, so it becomes unknown. A pending one was not sent, so it is withdrawn, unless the
   * computer restarted since it was journaled (`computerRestarted`, boot.ts): the commit that
   * would have marked it sent may have been lost then, the request gone, so it is unknown too.
   * Nothing is sent here; the manager sees the unknown ones and chooses.
   */
  reconcileAtStartup(computerRestarted: boolean): JournalEntry[] {
    for (const entry of this.journal.listInFlight()) {
      if (entry.state === 'pending' && !computerRestarted) {
        this.journal.withdraw(
          entry.id,
          'The app stopped before sending this execution; nothing was sent.',
        );
      } else if (entry.state === 'pending') {
        this.journal.markUnknown(
          entry.id,
          'The computer stopped as this execution was about to be sent; it may or may not have left, and been accepted.',
        );
      } else if (entry.state === 'sent') {
        this.journal.markUnknown(
          entry.id,
          'The app stopped before the service answered; the execution may or may not have been accepted.',
        );
      }
    }
    return this.journal.listInFlight();
  }

  /** Starts following versions executed with `followLater` (a batch's, once sent). */
  follow(versions: readonly TrackedVersion[]): void {
    for (const version of versions) this.deps.tracker.track(version);
  }

  /** Steps 3 to 5 of an entry marked sent, the first send or a retry. */
  private async send(
    sent: JournalEntry,
    followLater = false,
    turn?: SendTurn,
  ): Promise<ExecutionOutcome> {
    const { store, connections, tracker } = this.deps;
    {
      // 3. Send.
      const body = JSON.parse(sent.requestBody) as ExecuteRequest;
      let answer: Awaited<ReturnType<ExecutePort['executeVersion']>>;
      try {
        answer = await connections.call(sent.profileId, (c) =>
          c.executeVersion(sent.strategyId, body, sent.idempotencyKey),
        );
      } catch (error) {
        // 4. Settle a failure: no definite answer leaves the outcome unknown.
        const words = toDeskError(error).message;
        if (isServiceError(error) && error.ambiguous)
          this.journal.markUnknown(sent.id, words, error);
        else this.journal.markRejected(sent.id, words, error);
        this.noteVersionInTheWay(sent, error);
        throw error;
      }
      turn?.accepted();
      // 4. Settle the 202, in the transaction that says accepted however it came (the first send
      // or a retry after a crash): a crash leaves the entry "sent" with nothing stored, and a
      // retry with the same key replays the same version.
      const { version, location } = answer;
      const accepted = this.journal.markAccepted(
        sent.id,
        {
          versionId: version.id,
          location,
          ...(answer.locationNote && {
            givenLocation: answer.givenLocation ?? null,
            locationNote: answer.locationNote,
          }),
        },
        () => {
          store.versions.recordRead(sent.profileId, version, {
            origin: 'created',
            location,
            syncedAt: this.deps.now(),
          });
          // The service executes nothing while an unexecuted version is in the way: none is now.
          store.unexecuted.forgetStrategy(sent.profileId, sent.strategyId);
          answerPrediction(store, sent.id, version);
        },
      );
      // 5. Start following the version until its rebalance ends.
      const follow: TrackedVersion = {
        profileId: sent.profileId,
        strategyId: sent.strategyId,
        versionId: version.id,
        location,
        status: version.status,
      };
      if (!followLater) tracker.track(follow);
      return { entry: accepted, version, location, follow };
    }
  }

  /**
   * The service refused because an unexecuted version is in the way: the version it named is
   * remembered, read or not, so the screens show it from now on (versions/unexecuted.ts).
   */
  private noteVersionInTheWay(entry: JournalEntry, error: unknown): void {
    if (!isServiceError(error, 'unexecuted-version')) return;
    const versionId = error.details.versionId;
    if (typeof versionId !== 'string' || !/^[0-9a-f-]{36}$/i.test(versionId)) return;
    this.deps.store.unexecuted.noteNamed(
      entry.profileId,
      entry.strategyId,
      versionId.toLowerCase(),
      this.deps.now(),
    );
  }

  /** The journal changed: the event carries what versions.journal would answer now. */
  private announce(profileId: string): void {
    this.deps.emit({
      type: 'journal-changed',
      profileId,
      inFlight: this.inFlight(profileId).map(journalEntryView),
    });
  }
}

const sendingKey = (e: { profileId: string; strategyId: string }) =>
  `${e.profileId}/${e.strategyId}`;

/** What the execution's activity entry keeps of the confirmation. */
function confirmationOf(
  confirmed: Awaited<ReturnType<typeof confirmedRequest>>,
  confirmation: Confirmation | undefined,
): ExecutionConfirmation {
  return {
    predictionId: confirmed.predictionId,
    confirmed: confirmation !== undefined,
    acknowledgedStale: confirmation?.acknowledgedStale ?? false,
    targetUnconfirmed: confirmed.targetUnconfirmed,
    doubts: confirmed.prediction.doubts,
    acknowledgementNeeded: confirmed.prediction.needsAcknowledgement,
  };
}

/**
 * After a 202, however it came (the first send, a retry after a crash): the prediction linked to
 * the execution when it was journaled is compared with the service's positions and answered.
 */
function answerPrediction(
  store: Pick<Store, 'predictions'>,
  journalId: string,
  version: Version,
): void {
  const record = store.predictions.forJournal(journalId);
  if (!record || record.versionId !== null) return;
  const differences = comparePrediction(record.prediction, version.positions ?? []);
  store.predictions.recordAnswer(record.id, version.id, differences);
}

/** What an execution's state says of it, in a refusal to retry or dismiss it. */
const JOURNAL_STATE_WORDS: Record<JournalState, string> = {
  pending: 'is about to be sent',
  sent: 'is being sent now',
  accepted: 'was accepted by the service',
  rejected: 'was refused by the service, or never sent',
  dismissed: 'was dismissed already',
  unknown: 'has an unknown outcome',
};
