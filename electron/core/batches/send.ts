import type { ExclusionKind } from '../../../shared/batches/states';
import type { DraftRowInput } from '../../../shared/draft';
import { isKind } from '../../../shared/errors';
import { isServiceError, type RateLimitedWait } from '../api';
import { toDeskError } from '../errors';
import { ExecutionBlockedError } from '../execution/errors';
import type { Armed, Execution, ExecutionOutcome } from '../execution/execute';
import type { ExecutionRequest, FreshRead } from '../execution/request';
import type { ItemOutcome, Store, StoredBatch, StoredBatchItem } from '../store';
import { settleFromJournal } from './restart';
import { Run, StoppedBeforeSending } from './send-run';

/**
 * Sending a batch (docs/batches.md): its ready items in their stable order, `concurrency` at the
 * service at once (2 by default), each through the one execution flow with the plan key
 * reviewed, so a strategy changed since the review is refused there and skipped here, never
 * sent. Twice as many items are under way as are sent at once: one checks itself against its
 * fresh read and journals its execution (pending, on disk), or settles its answer, while others
 * are at the service (send-turns.ts). The item names its journal entry from then on and is moved
 * ready -> sending at its turn, just before its entry is marked sent: a restart finds the entry
 * and settles the item from it (restart.ts). A 429 pauses sending for the wait the profile's
 * retry policy gives (the service's Retry-After, bounded, with a floor: api/retry.ts), the item
 * ready again meanwhile; an item refused that way as often as the policy allows is not sent.
 * Cancel stops taking items (what was sent is followed); "stop at the first failure" does
 * the same after a refusal or an unclear answer.
 */

export interface SendDeps {
  store: Store;
  /** The one execution flow, as a pair: each item armed, then sent at its turn (or withdrawn). */
  execution: Pick<Execution, 'arm' | 'send' | 'withdraw'>;
  /** The fresh read an execution is checked against, made ahead of its send (request.ts). */
  readFresh(profileId: string, strategyId: string): Promise<FreshRead>;
  /** The wait after an item's `refusals`-th 429 in a row; undefined: not sent (Connections). */
  rateLimitedWait(profileId: string, error: unknown, refusals: number): RateLimitedWait | undefined;
  /** Starts following the versions sent (once sending is over: execution/request.ts). */
  follow(versions: readonly ExecutionOutcome['follow'][]): void;
  /** An item moved, or the batch did (position null). */
  announce(batchId: string, position: number | null): void;
  /** Sending stopped on a fault of the app's own (the store refused a write): logged. */
  fault(batchId: string, error: unknown): void;
  now(): string;
}

/** An item another window took to send first: it is that window's to settle. */
class TakenElsewhere extends Error {}

/** How an execution's failure leaves its item. */
function settledFailure(error: unknown): {
  state: 'refused' | 'unknown' | 'skipped';
  exclusionKind: ExclusionKind | null;
  reason: string;
  errorKind: string;
} {
  const desk = toDeskError(error);
  if (isKind(desk, 'confirmation-outdated'))
    return {
      state: 'skipped',
      exclusionKind: 'changed-since-review',
      reason:
        'Changed since the review (its holdings, its known target or another execution): not sent. Review it again.',
      errorKind: desk.kind,
    };
  if (isKind(desk, 'stale-not-acknowledged'))
    return {
      state: 'skipped',
      exclusionKind: 'not-acknowledged',
      reason: desk.message,
      errorKind: desk.kind,
    };
  if (error instanceof ExecutionBlockedError)
    return {
      state: 'skipped',
      exclusionKind: 'blocked',
      reason: error.message,
      errorKind: desk.kind,
    };
  if (isServiceError(error, 'unexecuted-version'))
    return {
      state: 'refused',
      exclusionKind: 'unexecuted-version',
      reason: `${desk.message}. Open the strategy to see the version in the way and delete it there, then review again.`,
      errorKind: desk.kind,
    };
  if (isServiceError(error) && error.ambiguous)
    return {
      state: 'unknown',
      exclusionKind: null,
      reason: `${desk.message}. The outcome is unknown: retry it with the same key or dismiss it from the strategy.`,
      errorKind: desk.kind,
    };
  return { state: 'refused', exclusionKind: null, reason: desk.message, errorKind: desk.kind };
}

export class BatchSender {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly deps: SendDeps) {}

  /** The time sending waits until for a 429 (null: not waiting). */
  pausedUntil(batchId: string): string | null {
    const run = this.runs.get(batchId);
    return run && run.pausedUntil > Date.now() ? new Date(run.pausedUntil).toISOString() : null;
  }

  /** The run under way, for whoever waits for it to finish (tests, benches). */
  running(batchId: string): Promise<void> | null {
    return this.runs.get(batchId)?.done ?? null;
  }

  /** Stops taking items; what was sent is followed. False when the batch is not sending here. */
  cancel(batchId: string): boolean {
    const run = this.runs.get(batchId);
    if (!run) return false;
    run.halt({ state: 'cancelled', reason: 'Cancelled before it was sent: review it again.' });
    return true;
  }

  /**
   * Sends the batch's ready items; resolves when sending is over (the batch may not have ended).
   * Never rejects: a fault of the app's own stops the batch ("stopped", its unsent items not
   * sent, their entries withdrawn) and is told through `fault`.
   */
  send(batch: StoredBatch, onOver: () => void): Promise<void> {
    const run = new Run(Math.max(1, batch.concurrency));
    this.runs.set(batch.id, run);
    run.done = this.sendAll(batch, run)
      .catch((error: unknown) => this.endAfterFault(batch, run, error))
      .finally(() => {
        this.runs.delete(batch.id);
        this.tell(batch.id, onOver);
      });
    return run.done;
  }

  /** Sending failed past its items (the store refused the batch's own writes): ended as stopped. */
  private endAfterFault(batch: StoredBatch, run: Run, error: unknown): void {
    run.failed(error);
    this.deps.fault(batch.id, error);
    this.tell(batch.id, () => this.settleLeftSending(batch));
    this.tell(batch.id, () => {
      const { store } = this.deps;
      store.transaction(() => {
        store.batches.moveAll(batch.id, 'ready', 'not-sent', run.stop!.reason);
        store.batches.sendingOver(batch.id, 'stopped', run.stopReason);
      });
      this.deps.announce(batch.id, null);
    });
  }

  /** Runs a step after sending; its failure is told, never left unhandled. */
  private tell(batchId: string, step: () => void): void {
    try {
      step();
    } catch (error) {
      this.deps.fault(batchId, error);
    }
  }

  private async sendAll(batch: StoredBatch, run: Run): Promise<void> {
    const { store } = this.deps;
    const items = store.batches.items(batch.id).filter((i) => i.state === 'ready');
    // Items under way: those at the service, and as many checking or settling around them.
    const workers = 2 * Math.max(1, batch.concurrency);
    // Each item's fresh read is made while the items before it are sent, at most `workers`
    // items ahead of the sends: its check stays fresh, and no worker waits for its reads. A
    // read that fails is made again by the execution itself, which reports the failure.
    const reads = new Map<number, Promise<FreshRead | null>>();
    let readNext = 0;
    const readAhead = (upTo: number) => {
      for (; readNext < items.length && readNext <= upTo; readNext++) {
        const item = items[readNext]!;
        reads.set(
          readNext,
          this.deps.readFresh(batch.profileId, item.strategyId).catch(() => null),
        );
      }
    };
    let next = 0;
    const worker = async () => {
      try {
        await sendItems();
      } catch (error) {
        // The app's own failure (the store refused a write): no other item is sent.
        run.failed(error);
      }
    };
    const sendItems = async () => {
      for (;;) {
        await run.waitWhilePaused();
        if (run.stop !== null || next >= items.length) return;
        const index = next++;
        const item = items[index]!;
        readAhead(index + workers);
        const read = reads.get(index)!;
        reads.delete(index);
        try {
          const fresh = await read;
          await this.sendOne(batch, item, index, run, fresh ?? undefined);
        } finally {
          run.itemDone(index);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: workers }, worker));
    } finally {
      this.deps.follow(run.accepted);
    }
    const stop = run.stop;
    if (run.fault !== null) {
      this.deps.fault(batch.id, run.fault.error);
      this.settleLeftSending(batch);
    }
    store.transaction(() => {
      if (stop !== null) store.batches.moveAll(batch.id, 'ready', 'not-sent', stop.reason);
      store.batches.sendingOver(batch.id, stop?.state ?? 'sent', run.stopReason);
    });
    this.deps.announce(batch.id, null);
  }

  /**
   * The items a fault left sending: each settled from its journal entry, as after a restart; one
   * whose outcome cannot be written (the same fault again) reads unknown, its execution in the
   * strategy holding what happened.
   */
  private settleLeftSending(batch: StoredBatch): void {
    const { store } = this.deps;
    for (const item of store.batches.items(batch.id)) {
      if (item.state !== 'sending') continue;
      this.tell(batch.id, () => {
        try {
          settleFromJournal(store, batch, item);
        } catch (error) {
          this.deps.fault(batch.id, error);
          store.batches.move(batch.id, item.position, 'sending', 'unknown', {
            reason:
              'The app could not record how its send ended: its execution, in the strategy, says whether the service took it.',
          });
        }
      });
    }
  }

  /**
   * One item, in order: armed (checked against its fresh read, journaled pending and on disk,
   * the item naming its entry), its turn taken (moved ready -> sending), sent, and its outcome
   * kept on the item. A 429 sends it again after the policy's wait, armed afresh.
   */
  private async sendOne(
    batch: StoredBatch,
    item: StoredBatchItem,
    index: number,
    run: Run,
    fresh: FreshRead | undefined,
  ): Promise<void> {
    const { execution } = this.deps;
    const turn = { sending: false };
    /** The 429s answered to this item in a row. */
    let refusals = 0;
    // Only the first attempt is checked against the read made ahead: after a 429's wait the
    // strategy is read again.
    let freshRead = fresh;
    for (;;) {
      let armed: Armed | null = null;
      let outcome: ExecutionOutcome;
      try {
        armed = await execution.arm(this.requestOf(batch, item, freshRead));
        freshRead = undefined;
        await this.takeTurn(batch, item, index, run, turn, armed);
        outcome = await execution.send(armed);
      } catch (error) {
        if (error instanceof TakenElsewhere) return;
        const journalId = armed?.entry.id ?? null;
        if (error instanceof StoppedBeforeSending) {
          this.settle(batch, item, turn, 'not-sent', { reason: error.message, journalId });
          return;
        }
        if (isServiceError(error, 'rate-limited')) {
          if (await this.waitAfter429(batch, item, index, run, turn, ++refusals, error, journalId))
            continue;
          return;
        }
        this.settleFailure(batch, item, run, turn, error, journalId);
        return;
      }
      // Outside the try: an answer the store cannot write is a fault of the app's own (sending
      // stops), not a refusal of this item.
      run.giveBack(index);
      run.accepted.push(outcome.follow);
      this.settle(batch, item, turn, 'accepted', {
        journalId: outcome.entry.id,
        versionId: outcome.version.id,
      });
      return;
    }
  }

  /** What one item's execution sends: its rows under the batch's review. */
  private requestOf(
    batch: StoredBatch,
    item: StoredBatchItem,
    freshRead: FreshRead | undefined,
  ): ExecutionRequest {
    return {
      profileId: batch.profileId,
      strategyId: item.strategyId,
      rows: JSON.parse(item.rows) as DraftRowInput[],
      origin: {
        kind: 'batch',
        batchId: batch.id,
        reviewSeq: batch.reviewSeq,
        position: item.position,
      },
      followLater: true,
      ...(freshRead && { freshRead }),
      confirmation: {
        planKey: item.planKey ?? '',
        acknowledgedStale: item.acknowledged,
        againAfter: null,
      },
    };
  }

  /**
   * Waits for the armed item's turn, then moves it ready -> sending (once, here or in another
   * window: the move is conditional). A turn that does not come (the batch stopped) or was taken
   * elsewhere withdraws its entry: never sent.
   */
  private async takeTurn(
    batch: StoredBatch,
    item: StoredBatchItem,
    index: number,
    run: Run,
    turn: { sending: boolean },
    armed: Armed,
  ): Promise<void> {
    const { store, execution } = this.deps;
    try {
      await run.takeTurn(index);
      if (turn.sending) return;
      if (!store.batches.move(batch.id, item.position, 'ready', 'sending'))
        throw new TakenElsewhere();
    } catch (error) {
      // The batch's words for why (its stop), or plain ones.
      execution.withdraw(
        armed,
        error instanceof Error && error.message ? error.message : 'Not sent.',
      );
      throw error;
    }
    turn.sending = true;
    this.deps.announce(batch.id, item.position);
  }

  /**
   * A 429: nothing was executed (a definite refusal). Its turn goes back and it reads ready
   * again, not sending, until its next turn (the view never shows more sending than the
   * concurrency). True when it is to be sent again after the policy's wait, under the same
   * review, its plan key checked again; false when it was settled not sent.
   */
  private async waitAfter429(
    batch: StoredBatch,
    item: StoredBatchItem,
    index: number,
    run: Run,
    turn: { sending: boolean },
    refusals: number,
    error: unknown,
    journalId: string | null,
  ): Promise<boolean> {
    const { store } = this.deps;
    const wait = this.deps.rateLimitedWait(batch.profileId, error, refusals);
    if (turn.sending) store.batches.move(batch.id, item.position, 'sending', 'ready');
    turn.sending = false;
    run.giveBack(index);
    if (wait === undefined) {
      this.settle(batch, item, turn, 'not-sent', {
        reason: `Not sent: the service kept answering 429 (too many requests), ${refusals} times. Review it again.`,
        errorKind: 'rate-limited',
        journalId,
      });
      return false;
    }
    run.pausedUntil = Math.max(run.pausedUntil, Date.now() + wait.delayMs);
    this.deps.announce(batch.id, item.position);
    await run.waitWhilePaused();
    this.deps.announce(batch.id, null);
    if (run.stop === null) return true;
    this.settle(batch, item, turn, 'not-sent', { reason: run.stop.reason, journalId });
    return false;
  }

  /** A refusal, an unclear answer or a skip: kept on the item; the first failure may stop the batch. */
  private settleFailure(
    batch: StoredBatch,
    item: StoredBatchItem,
    run: Run,
    turn: { sending: boolean },
    error: unknown,
    journalId: string | null,
  ): void {
    const settled = settledFailure(error);
    // Decided before the turn is given back: no later item is sent past a first failure.
    if (batch.stopAtFirstFailure && settled.state !== 'skipped')
      run.halt({
        state: 'halted',
        reason: `Not sent: sending stopped at the first failure (${item.strategyName}). Review it again.`,
      });
    this.settle(batch, item, turn, settled.state, {
      reason: settled.reason,
      exclusionKind: settled.exclusionKind,
      errorKind: settled.errorKind,
      journalId,
    });
  }

  /** The item's outcome, moved from where it is (ready, or sending once its turn came). */
  private settle(
    batch: StoredBatch,
    item: StoredBatchItem,
    turn: { sending: boolean },
    to: Parameters<Store['batches']['move']>[3],
    outcome: ItemOutcome,
  ): void {
    const from = turn.sending ? 'sending' : 'ready';
    this.deps.store.batches.move(batch.id, item.position, from, to, outcome);
    this.deps.announce(batch.id, item.position);
  }
}
