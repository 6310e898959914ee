import { randomUUID } from 'node:crypto';
import type { DeskEvent } from '../../../shared/contract';
import type { ExecutePreview } from '../../../shared/views';
import type { ExecuteRequest, Version } from '../../../shared/domain/resources';
import { comparePrediction } from '../../../shared/draft';
import { isServiceError } from '../api';
import { journalEntryView } from '../../../shared/version-views';
import { notFound, toDeskError } from '../errors';
import type { JournalEntry, Store } from '../store';
import type { JournalClaim } from '../store/repositories/journal';
import { Restrictions } from '../restrictions';
import type { Follower, TrackedVersion } from '../tracking/tracker';
import { statusFigures } from '../views/strategy';
import { admitExecution, type AdmissionDeps, type Admitted } from './admission';
import { prepareTarget, type ExecutionTarget } from './confirmation';
import { DurableClaims } from './durable-claims';
import { DraftExecutedError, ExecutionBlockedError } from './errors';
import {
  recordingJournal,
  type ExecutionConfirmation,
  type FirstSend,
  type JournalPort,
} from './journal';
import type { Confirmation, ExecutionRequest } from './request';

/**
 * Executing a strategy's target rows (a draft's, or a batch's: request.ts) is a pair, every step
 * in order in this file:
 *
 * `arm(request) -> Armed`
 * 1. admit (admission.ts): a desk in a team takes the team's claim first; confirm: the request
 *    the manager saw is still what executing sends now (confirmation.ts), and its prediction is
 *    recorded; the restrictions in force; the team's approval of exactly this content;
 * 2. claim and journal: the request is written down pending with its Idempotency-Key, its claim
 *    unique in the database (one execution of a strategy in flight, one per draft), and made
 *    durable (the WAL fsynced off the event loop, one fsync for the executions armed meanwhile:
 *    durable-claims.ts).
 *    Once armed, the intent survives a crash and can never be sent twice.
 *
 * `send(armed) -> ExecutionOutcome`
 * 3. mark it sent (the commit comes before the request; the entry is on disk already) and send
 *    it, once;
 * 4. settle the answer: a 202 (once a batch's next item took its turn: `SendSteps.answered`)
 *    stores the version, forgets the unexecuted versions it replaced and answers the prediction,
 *    in the transaction that marks the entry accepted; a refusal naming an unexecuted version in
 *    the way is noted; no definite answer leaves the outcome unknown;
 * 5. start following the version until its rebalance ends (tracking/).
 *
 * A draft's execution is arm then send. A batch arms an item while others are at the service
 * and sends it at its turn (batches/send.ts), the item moving with its entry's marks (sending,
 * accepted) in their transactions (`SendSteps`); an armed item whose turn never comes (the batch
 * stopped) is withdrawn, never sent.
 *
 * Journal states: pending (armed) -> sent (on the wire) -> accepted (202) | rejected (a definite
 * refusal, or withdrawn while pending: never sent) | unknown (no definite answer: timeout, reset,
 * 5xx, or the app stopped). A request is only ever re-sent with the same key and body, so the
 * service can never accept one intended execution twice. An unknown entry is resolved by the
 * manager (recovery.ts): retry with the same key or dismiss it; it is never re-sent on its own.
 * A pending entry found at start-up was not sent if the computer did not restart since (the
 * commit marking it sent precedes the request, and an app crash keeps the WAL); after a restart
 * of the computer that commit may have been lost with the request gone, so it is unknown
 * (recovery.ts, boot.ts).
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

export interface ExecutionDeps extends AdmissionDeps {
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

/**
 * What a caller keeps in step with a send's own writes, each in the same transaction as the
 * journal's (a batch's item: batches/send.ts), so the two never disagree, even after a crash.
 */
export interface SendSteps {
  /** With the entry marked sent, before the request leaves. Throwing sends nothing. */
  sending?(): void;
  /**
   * As a 202 comes, before it is written (a batch gives the item's turn to the next). What this
   * starts without waiting for I/O or a timer runs first; the 202 is written right after, in the
   * same turn of the event loop, so nothing reads the two items sending at once.
   */
  answered?(): void;
  /** With the 202 written: the entry accepted, the version stored. */
  accepted?(version: Version): void;
}

/**
 * An execution armed (`arm`): checked, journaled with its Idempotency-Key and on disk, ready to
 * be sent once (`send`) or withdrawn unsent (`withdraw`). An unknown entry sent again with its
 * same key is armed too (recovery.ts).
 */
export interface Armed {
  readonly entry: JournalEntry;
  /** A first send's activity entry: what the manager saw and acknowledged. Absent: a retry. */
  readonly first?: FirstSend;
  /** Followed by the caller later (request.ts, `followLater`). */
  readonly followLater: boolean;
}

export class Execution {
  /** Profile/strategy pairs with a request on the wire in this process: a second click sends nothing. */
  private readonly sending = new Set<string>();
  private readonly journal: JournalPort;
  /** Claims on disk before anything leaves, one fsync for those armed meanwhile. */
  private readonly claims: DurableClaims<JournalClaim>;
  private readonly restrictions: Restrictions;

  constructor(private readonly deps: ExecutionDeps) {
    this.restrictions = new Restrictions(deps.store, deps.now);
    this.claims = new DurableClaims(deps.store);
    // Each journal write is recorded with the desk's words for a failure (its kind, its status).
    this.journal = recordingJournal(deps.store, toDeskError);
  }

  /** Entries of a profile whose outcome is not known yet. */
  inFlight(profileId: string): JournalEntry[] {
    return this.deps.store.journal.listInFlight(profileId);
  }

  /**
   * What executing these rows does now (the known target and the strategy read fresh), and the
   * plan key `arm` takes in its confirmation: a batch's review of one strategy. A draft's
   * confirmation is `prepareExecution` (confirmation.ts), which also names its earlier version.
   */
  prepare(target: ExecutionTarget): Promise<ExecutePreview> {
    return prepareTarget(this.deps, target, null);
  }

  /** Executes a stored draft: its rows, claimed once per draft. */
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

  /** Executes a strategy's target rows at once: arm, then send. */
  async execute(request: ExecutionRequest): Promise<ExecutionOutcome> {
    return this.send(await this.arm(request));
  }

  /**
   * Steps 1 and 2: confirm, claim and journal (pending), make durable. Throws, nothing
   * journaled, when the checks refuse; the entry withdrawn when the disk refuses.
   */
  async arm(request: ExecutionRequest): Promise<Armed> {
    const { profileId, strategyId, origin, confirmation } = request;
    const idempotencyKey = randomUUID();
    // 1. The team's claim, the confirmation (predicted and recorded before sending; compared with
    // the answer after a 202), the restrictions and the team's approval (admission.ts).
    const { confirmed, restricted } = await admitExecution(
      this.deps,
      this.restrictions,
      request,
      idempotencyKey,
    );
    // 2. Claim and journal. The checks (nothing of the strategy in flight, the draft not
    // executed since) and the insert are one write transaction, its claim unique.
    const input = {
      profileId,
      strategyId,
      draftId: origin.kind === 'draft' ? origin.draftId : null,
      againAfter: confirmation?.againAfter ?? null,
      idempotencyKey,
      requestBody: JSON.stringify(confirmed.body),
    };
    // Kept in the execution's activity entry: what the manager saw and acknowledged.
    const first = {
      confirmation: confirmationOf(confirmed, confirmation),
      origin,
      restrictions: restricted.entry,
    };
    // A batch's item names its entry in the same transaction: a restart settles it from it.
    const item = origin.kind === 'batch' ? origin : null;
    const { claim, durable } = await this.claims.write(() =>
      this.journal.arm(input, first.confirmation, (id) => {
        this.restrictions.recordForExecution(id, profileId, strategyId, restricted);
        if (item?.position !== undefined)
          this.deps.store.batches.nameJournalEntry(item.batchId, item.position, id);
      }),
    );
    if (!('created' in claim)) this.deps.team?.release(input, 'not journaled: nothing was sent');
    if ('blocking' in claim) throw new ExecutionBlockedError(claim.blocking.state);
    if ('executedAs' in claim) throw new DraftExecutedError(claim.executedAs);
    const entry = claim.created;
    if (durable !== null) {
      // The disk refused: the request does not leave, and the entry says so.
      this.withdraw(
        { entry, followLater: false },
        'The journal could not be written to disk; nothing was sent.',
      );
      throw durable.error;
    }
    return { entry, first, followLater: request.followLater === true };
  }

  /** An armed execution that will not be sent (a batch stopped before its turn): never sent. */
  withdraw(armed: Armed, words: string): void {
    this.journal.withdraw(armed.entry.id, words);
    this.deps.team?.release(armed.entry, `withdrawn, never sent: ${words}`);
    this.announce(armed.entry.profileId);
  }

  /**
   * Steps 3 to 5 of an armed execution, its first send or a retry with the same key: marked
   * sent, sent once, its answer settled, its version followed (unless `followLater`). `steps`:
   * what the caller writes with the sent and accepted marks.
   */
  async send(armed: Armed, steps: SendSteps = {}): Promise<ExecutionOutcome> {
    const key = sendingKey(armed.entry);
    // Only the call that took the key gives it back: a call refused here leaves it to its holder.
    let holds = false;
    try {
      if (this.sending.has(key)) throw new ExecutionBlockedError('sent');
      this.sending.add(key);
      holds = true;
      // 3. Marked sent, then sent. Another process sent it first: nothing leaves here.
      const sent = this.journal.markSent(armed.entry.id, armed.first, steps.sending);
      if (!sent) throw new ExecutionBlockedError('sent');
      return await this.request(sent, armed.followLater, steps);
    } finally {
      if (holds) this.sending.delete(key);
      this.announce(armed.entry.profileId);
    }
  }

  /** An execution settled outside this file (an unknown one dismissed): the team's claim leaves. */
  releaseClaim(entry: JournalEntry, finding: string): void {
    this.deps.team?.release(entry, finding);
  }

  /** Starts following versions executed with `followLater` (a batch's, once sent). */
  follow(versions: readonly TrackedVersion[]): void {
    for (const version of versions) this.deps.tracker.track(version);
  }

  /** The journal changed: the event carries what versions.journal would answer now. */
  announce(profileId: string): void {
    this.deps.emit({
      type: 'journal-changed',
      profileId,
      inFlight: this.inFlight(profileId).map(journalEntryView),
      appStatus: statusFigures(this.deps.store),
    });
  }

  /** Steps 3 to 5 of an entry marked sent: the request, its answer, following the version. */
  private async request(
    sent: JournalEntry,
    followLater: boolean,
    steps: Pick<SendSteps, 'answered' | 'accepted'>,
  ): Promise<ExecutionOutcome> {
    const { store, connections, tracker } = this.deps;
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
      // An unknown outcome keeps the team's claim until it is reconciled (recovery.ts).
      if (isServiceError(error) && error.ambiguous) this.journal.markUnknown(sent.id, words, error);
      else {
        this.journal.markRejected(sent.id, words, error);
        this.deps.team?.release(sent, `rejected: ${words}`);
      }
      this.noteVersionInTheWay(sent, error);
      throw error;
    }
    if (steps.answered) {
      steps.answered();
      // The next item's sent mark is written and its request made before this answer is written
      // (about 2 ms a 202), not after. Both in this turn of the event loop: a tick runs once the
      // promise jobs started here are done, before any I/O callback or timer could read them.
      await new Promise<void>((written) => process.nextTick(written));
    }
    // 4. Settle the 202, in the transaction that says accepted however it came (the first send
    // or a retry after a crash): a crash leaves the entry "sent" with nothing stored, and a
    // retry with the same key replays the same version.
    const { version, location } = answer;
    const entry = this.journal.markAccepted(
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
        steps.accepted?.(version);
      },
    );
    // A desk in a team records the version in the team's log, and keeps the team's claim until
    // the rebalance ended (desk/index.ts): while it runs, the strategy's holdings still look as
    // before, and another desk reading them then would send on them.
    this.deps.team?.executed(sent, version.id);
    // 5. Start following the version until its rebalance ends.
    const follow: TrackedVersion = {
      profileId: sent.profileId,
      strategyId: sent.strategyId,
      versionId: version.id,
      location,
      status: version.status,
    };
    if (!followLater) tracker.track(follow);
    return { entry, version, location, follow };
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
}

const sendingKey = (e: { profileId: string; strategyId: string }) =>
  `${e.profileId}/${e.strategyId}`;

/** What the execution's activity entry keeps of the confirmation. */
function confirmationOf(
  confirmed: Admitted['confirmed'],
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
