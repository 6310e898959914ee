import { DeskError } from '../../../shared/errors';
import type { DeskEvent } from '../../../shared/contract';
import type { Acknowledgement, BatchSummary, BatchView } from '../../../shared/batches/views';
import type { ExecutePreview } from '../../../shared/views';
import { Throttle } from '../../../shared/throttle';
import {
  BatchAlreadyEnded,
  batchReviewedEntry,
  recordBatchEnded,
} from '../activity/record-batches';
import type { Execution } from '../execution/execute';
import type { Connections } from '../profiles/connections';
import type { Store, StoredBatch, StoredBatchItem } from '../store';
import type { Tracking } from '../tracking/tracking';
import { settleAtStartup } from './restart';
import { BatchReview, type ReviewRequest } from './review';
import { BatchSender } from './send';
import {
  acknowledgementFingerprint,
  batchViewOf,
  batchWords,
  countsOf,
  progressEvent,
  summaryOf,
  SUPERSEDED,
  type Warned,
} from './views';

/**
 * Batches (docs/batches.md): one review of a model revision for many strategies, sent through
 * the one execution flow, followed to its end, every step kept in SQLite so a restart settles
 * what went out and never sends what did not.
 */

/** A batch's progress is announced at most this often: hundreds of items move in seconds. */
const ANNOUNCE_EVERY_MS = 50;

export interface BatchesDeps {
  store: Store;
  execution: Pick<Execution, 'prepare' | 'arm' | 'send' | 'withdraw' | 'follow'>;
  emit(event: DeskEvent): void;
  /**
   * Tracking's domain events (tracking/tracking.ts): a batch's versions ending end the batch,
   * once every version's end is settled and recorded, not at the first status that reads ended.
   */
  tracking: Pick<Tracking, 'onVersionEnded' | 'endsBeingSettled'>;
  now(): string;
  /**
   * The profile's connection: a batch's requests in the bulk lane of its one request budget
   * (a manager's own execute or confirmation goes first), a 429's wait decided there.
   */
  connections: Pick<Connections, 'inBulk' | 'pauseAfter429' | 'budget'>;
  /** Where a fault that stopped a batch is written (the desk's log). */
  logFault(batchId: string, error: unknown): void;
}

export interface ExecuteBatch {
  batchId: string;
  /** Strategies the manager unticked: not sent. */
  unticked: readonly string[];
  /**
   * The uncertain strategies the manager acknowledged, each with the fingerprint of this
   * review's warnings for it: every one must be named (`checkAcknowledgements`).
   */
  acknowledged: readonly Acknowledgement[];
  /** The acknowledgements were given as one act for the whole named list. */
  acknowledgedTogether?: boolean | undefined;
  stopAtFirstFailure: boolean;
  concurrency?: number | undefined;
}

const notFoundBatch = () =>
  new DeskError({ kind: 'not-found', message: 'This batch is not in this app.' });

export class Batches {
  private readonly reviewer: BatchReview;
  private readonly sender: BatchSender;
  private readonly unsubscribe: () => void;
  /** Batches with progress to announce: the items that moved since the last announcement. */
  private readonly pending = new Map<string, { positions: Set<number>; throttle: Throttle }>();
  /** The desk closed: nothing more is announced (no timer left over a closed store). */
  private closed = false;

  constructor(private readonly deps: BatchesDeps) {
    this.reviewer = new BatchReview({
      store: deps.store,
      prepare: (target) => deps.connections.inBulk(() => deps.execution.prepare(target)),
    });
    this.sender = new BatchSender({
      store: deps.store,
      execution: deps.execution,
      connections: deps.connections,
      announce: (batchId, position) => this.announce(batchId, position),
      fault: deps.logFault,
    });
    this.unsubscribe = deps.tracking.onVersionEnded((ended) => {
      const item = deps.store.batches.itemOfVersion(ended.versionId);
      if (!item) return;
      this.announce(item.batchId, item.position);
      this.checkEnd(item.batchId);
    });
  }

  /**
   * A new review supersedes the profile's earlier reviews, never executed, that would send one of
   * its strategies: only the newest is the one to sign (they read so, and executing one is
   * refused).
   */
  async review(request: ReviewRequest): Promise<BatchView> {
    const batch = await this.reviewer.review(request);
    const { store } = this.deps;
    for (const olderId of store.batches.overlappingReviews(batch.profileId, batch.id))
      if (store.batches.supersede(olderId, batch.id)) this.announce(olderId, null);
    return this.view(batch);
  }

  get(batchId: string): BatchView {
    return this.view(this.batch(batchId));
  }

  list(profileId: string): BatchSummary[] {
    return this.deps.store.batches
      .list(profileId)
      .map((b) =>
        summaryOf(
          this.deps.store,
          b,
          this.deps.store.batches.items(b.id),
          this.sender.pausedUntil(b.id),
        ),
      );
  }

  /** The full confirmation of one strategy of the review (what the row opens). */
  preview(batchId: string, strategyId: string): ExecutePreview {
    const item = this.deps.store.batches.items(batchId).find((i) => i.strategyId === strategyId);
    if (!item) throw notFoundBatch();
    if (item.preview === null)
      throw new DeskError({
        kind: 'not-found',
        message: `${item.strategyName} could not be previewed: ${item.reason ?? 'it was not read'}.`,
      });
    return JSON.parse(item.preview) as ExecutePreview;
  }

  /**
   * Starts sending (once: a second window's call is refused) after writing the review's entry
   * with what the manager unticked and acknowledged. Resolves once sending has begun; the
   * batch's progress is announced.
   */
  execute(input: ExecuteBatch): BatchView {
    const { store } = this.deps;
    const batch = this.batch(input.batchId);
    if (batch.state !== 'reviewed')
      throw new DeskError({
        kind: 'confirmation-outdated',
        message:
          batch.state !== 'expired'
            ? 'This batch was executed already (perhaps from another window): nothing more was sent.'
            : batch.supersededBy !== null
              ? `This review was ${SUPERSEDED}: sign the newer one. Nothing was sent.`
              : 'This review was made before the app restarted: review the strategies again. Nothing was sent.',
      });
    const items = store.batches.items(batch.id);
    const unticked = new Set(input.unticked);
    checkAcknowledgements(batch.id, items, unticked, input.acknowledged);
    const concurrency = input.concurrency ?? batch.concurrency;
    const model = store.models.get(batch.modelId)!;
    const revision = store.models.revision(batch.revisionId)!;
    // Started once (a second window's call is refused), the unticked and acknowledged kept,
    // and the review's entry appended, in one transaction; its seq is kept on the batch.
    const executed = { ...batch, stopAtFirstFailure: input.stopAtFirstFailure, concurrency };
    const reviewSeq = store.activity.record((append) => {
      if (
        !store.batches.start(batch.id, {
          stopAtFirstFailure: input.stopAtFirstFailure,
          concurrency,
        })
      )
        return null;
      for (const i of items) {
        if (i.state !== 'ready') continue;
        if (unticked.has(i.strategyId))
          store.batches.move(batch.id, i.position, 'ready', 'unticked', {
            reason: 'Unticked by the manager.',
          });
        else if (i.needsAcknowledgement) store.batches.acknowledge(batch.id, i.position);
      }
      const started = store.batches.items(batch.id);
      const entry = append(
        batchReviewedEntry(
          store,
          executed,
          model,
          revision,
          input.acknowledgedTogether === true,
          started,
        ),
      );
      store.batches.setReviewSeq(batch.id, entry.seq);
      return entry.seq;
    });
    if (reviewSeq === null)
      throw new DeskError({
        kind: 'confirmation-outdated',
        message:
          'This batch was executed already (perhaps from another window): nothing more was sent.',
      });
    const started = this.batch(batch.id);
    // Never rejects: a fault while sending ends the batch "stopped" and is logged (send.ts).
    void this.sender.send(started, () => this.checkEnd(batch.id));
    return this.view(started);
  }

  /** Stops sending (what was sent is followed); a batch never executed is never sent. */
  cancel(batchId: string): BatchView {
    const { store } = this.deps;
    const batch = this.batch(batchId);
    if (!this.sender.cancel(batchId) && batch.state === 'reviewed')
      store.transaction(() => {
        if (store.batches.setState(batchId, 'reviewed', 'cancelled'))
          store.batches.moveAll(
            batchId,
            'ready',
            'not-sent',
            'Cancelled before it was sent: review it again.',
          );
      });
    return this.get(batchId);
  }

  /** Sending under way, for whoever waits for it (tests, benches): null when not sending here. */
  sending(batchId: string): Promise<void> | null {
    return this.sender.running(batchId);
  }

  /**
   * At start-up: every item a stopped process left in `sending` is settled from the journal,
   * every item left ready is never sent (review again), and a batch that was sending reads
   * "stopped after N of M". Batches whose versions ended meanwhile end.
   */
  settleAtStartup(): void {
    const touched = settleAtStartup(this.deps.store);
    for (const batch of this.deps.store.batches.unfinished()) this.checkEnd(batch.id);
    void touched;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    for (const { throttle } of this.pending.values()) throttle.cancel();
    this.pending.clear();
  }

  /**
   * The batch ended when sending is over and every version it created has ended, its end settled.
   * Each version's end asks, and a batch has up to 1,000: so never a walk of its items. Once
   * sending is over no item is ready or sending (send.ts, restart.ts); the store answers from the
   * index of the versions still rebalancing whether one is the batch's, and the versions whose
   * end is being settled are few.
   */
  private checkEnd(batchId: string): void {
    const { store } = this.deps;
    const batch = store.batches.get(batchId);
    if (!batch || batch.endedAt !== null || batch.sendingOverAt === null) return;
    if (store.batches.hasRebalancingVersion(batch.profileId, batchId)) return;
    for (const versionId of this.deps.tracking.endsBeingSettled())
      if (store.batches.itemOfVersion(versionId)?.batchId === batchId) return;
    const counts = countsOf(store.batches.items(batchId));
    const outcomes = store.batches.sentOutcomes(batchId);
    try {
      recordBatchEnded(store, batch, {
        counts,
        outcomes,
        words: batchWords(batch, counts, outcomes),
      });
    } catch (error) {
      if (error instanceof BatchAlreadyEnded) return;
      throw error;
    }
    this.announce(batchId, null);
  }

  private batch(batchId: string): StoredBatch {
    const batch = this.deps.store.batches.get(batchId);
    if (!batch) throw notFoundBatch();
    return batch;
  }

  private view(batch: StoredBatch): BatchView {
    return batchViewOf(this.deps.store, batch, this.sender.pausedUntil(batch.id));
  }

  /**
   * The batch moved (an item, or the batch itself when `position` is null): announced within
   * ANNOUNCE_EVERY_MS, together with whatever else moved meanwhile.
   */
  private announce(batchId: string, position: number | null): void {
    if (this.closed) return;
    let pending = this.pending.get(batchId);
    if (!pending) {
      pending = {
        positions: new Set(),
        throttle: new Throttle(ANNOUNCE_EVERY_MS, () => this.announceNow(batchId)),
      };
      this.pending.set(batchId, pending);
    }
    if (position !== null) pending.positions.add(position);
    pending.throttle.soon();
  }

  private announceNow(batchId: string): void {
    const pending = this.pending.get(batchId);
    this.pending.delete(batchId);
    const { store } = this.deps;
    const batch = store.batches.get(batchId);
    if (!pending || !batch) return;
    const moved = [...pending.positions]
      .sort((a, b) => a - b)
      .flatMap((position) => store.batches.item(batchId, position) ?? []);
    this.deps.emit(progressEvent(store, batch, this.sender.pausedUntil(batchId), moved));
  }
}

const refused = (message: string) =>
  new DeskError({ kind: 'stale-not-acknowledged', message: `${message} Nothing was sent.` });

const them = (n: number) => (n === 1 ? 'it' : 'them');

/**
 * Checks an execute's acknowledgements against the review: every one given must be for an
 * uncertain line of this review with its fingerprint, and every uncertain line sent must have
 * one. Throws a DeskError (stale-not-acknowledged) naming the strategies otherwise.
 */
export function checkAcknowledgements(
  batchId: string,
  items: readonly StoredBatchItem[],
  unticked: ReadonlySet<string>,
  given: readonly Acknowledgement[],
): void {
  const byStrategy = new Map(items.map((i) => [i.strategyId, i]));
  const foreign = given.filter((a) => {
    const item = byStrategy.get(a.strategyId);
    if (!item || item.state !== 'ready' || !item.needsAcknowledgement || item.review === null)
      return true;
    const review = JSON.parse(item.review) as Warned;
    return a.fingerprint !== acknowledgementFingerprint(batchId, item.strategyId, review);
  });
  if (foreign.length > 0) {
    const names = foreign.map((a) => byStrategy.get(a.strategyId)?.strategyName ?? a.strategyId);
    throw refused(
      `The acknowledgement of ${names.join(', ')} was not given on this review for the warnings it shows (another review's, or other warnings): read this review's warnings and acknowledge ${them(foreign.length)} again.`,
    );
  }
  const acknowledged = new Set(given.map((a) => a.strategyId));
  const missing = items.filter(
    (i) =>
      i.state === 'ready' &&
      i.needsAcknowledgement &&
      !unticked.has(i.strategyId) &&
      !acknowledged.has(i.strategyId),
  );
  if (missing.length > 0)
    throw refused(
      `The target of ${missing.map((i) => i.strategyName).join(', ')} is uncertain: acknowledge ${them(missing.length)} by name, or untick ${them(missing.length)}.`,
    );
}
