import type { DraftRowInput } from '../../../shared/draft';
import { isServiceError } from '../api';
import type { Armed, Execution, ExecutionOutcome, SendSteps } from '../execution/execute';
import type { ExecutionRequest } from '../execution/request';
import type { Connections } from '../profiles/connections';
import type { ItemOutcome, Store, StoredBatch, StoredBatchItem } from '../store';
import { isOwnFault, settledFailure } from './outcomes';
import { settleFromJournal } from './restart';
import { Run, StoppedBeforeSending } from './send-run';

/**
 * Sending a batch (docs/batches.md): its ready items in their stable order, `concurrency` at the
 * service at once (2 by default), each through the one execution flow with the plan key
 * reviewed, so a strategy changed since the review is refused there and skipped here, never
 * sent. Twice as many items are under way as are sent at once: one reads its strategy fresh,
 * checks itself against it and journals its execution (pending, on disk), or settles its answer,
 * while others are at the service (send-run.ts). The item names its journal entry from then on,
 * and moves with it: ready -> sending at its turn as the entry is marked sent, to accepted as its
 * 202 is written (`stepsOf`); a restart finds the entry and settles the item from it
 * (restart.ts). Every request of a run is in the bulk lane of the profile's one request budget
 * (api/budget.ts), and a 429 is paced there: the profile's budget pauses for the wait its retry
 * policy gives (Connections.pauseAfter429: the service's Retry-After, bounded, with a floor), no
 * turn is taken meanwhile and the item is ready again; an item refused that way as often as the
 * policy allows is not sent. Cancel stops taking items (what was sent is followed); "stop at the
 * first failure" does the same after a refusal or an unclear answer. A fault of the app's own
 * (its store or disk refusing a write) stops sending: no other item is sent.
 */

export interface SendDeps {
  store: Store;
  /**
   * The one execution flow, as a pair: each item armed, then sent at its turn (or withdrawn);
   * the versions sent followed once sending is over.
   */
  execution: Pick<Execution, 'arm' | 'send' | 'withdraw' | 'follow'>;
  /** The profile's connection: its bulk lane, its one request budget and its word on a 429. */
  connections: Pick<Connections, 'inBulk' | 'pauseAfter429' | 'budget'>;
  /** An item moved, or the batch did (position null). */
  announce(batchId: string, position: number | null): void;
  /** Sending stopped on a fault of the app's own (the store refused a write): logged. */
  fault(batchId: string, error: unknown): void;
}

/** Where an item's send stands: its turn taken (it reads sending), its outcome not written. */
interface Turn {
  sending: boolean;
  unwritten: { error: unknown } | null;
}

/** An item another window took to send first: it is that window's to settle. */
class TakenElsewhere extends Error {}

export class BatchSender {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly deps: SendDeps) {}

  /** The time sending waits until for a 429 (null: not waiting): the profile's budget's pause. */
  pausedUntil(batchId: string): string | null {
    return this.runs.get(batchId)?.pausedUntil?.toISOString() ?? null;
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
    const { connections } = this.deps;
    const concurrency = Math.max(1, batch.concurrency);
    const budget = connections.budget(batch.profileId);
    const run = new Run(concurrency, budget);
    this.runs.set(batch.id, run);
    // Items under way: those at the service, and enough reading, checking or settling around
    // them that the profile's budget never waits for a request of the batch (their reads wait
    // there with every other request): the sends at once, and as many as the budget lets go.
    const workers = concurrency + Math.max(concurrency, budget.limit);
    // Every request of the run (its reads, arms and sends) in the budget's bulk lane: a
    // manager's own execute or confirmation goes first.
    run.done = connections
      .inBulk(() => this.sendAll(batch, run, workers))
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

  private async sendAll(batch: StoredBatch, run: Run, workers: number): Promise<void> {
    const { store, execution } = this.deps;
    const items = store.batches.items(batch.id).filter((i) => i.state === 'ready');
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
      while (run.stop === null && next < items.length) {
        const index = next++;
        try {
          await this.sendOne(batch, items[index]!, index, run);
        } finally {
          run.itemDone(index);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: workers }, worker));
    } finally {
      execution.follow(run.accepted);
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
   * One item, in order: armed (the strategy and its known target read fresh, checked against
   * the review, journaled pending and on disk, the item naming its entry), its turn taken, sent
   * (moved ready -> sending as its entry is marked sent), and its outcome kept on the item. A
   * 429 sends it again once the budget's pause is over, armed (read and checked) afresh.
   */
  private async sendOne(
    batch: StoredBatch,
    item: StoredBatchItem,
    index: number,
    run: Run,
  ): Promise<void> {
    const { execution } = this.deps;
    const turn: Turn = { sending: false, unwritten: null };
    /** The 429s answered to this item in a row. */
    let refusals = 0;
    for (;;) {
      let armed: Armed | null = null;
      let outcome: ExecutionOutcome;
      try {
        armed = await execution.arm(this.requestOf(batch, item));
        await run.takeTurn(index);
        outcome = await execution.send(armed, this.stepsOf(batch, item, turn, armed, run, index));
      } catch (error) {
        if (armed && !turn.sending) this.withdrawUnsent(armed, error);
        if (error instanceof TakenElsewhere) return;
        // The app's own failure before the request left (the store refused its claim, its turn
        // or its sent mark): a fault, no other item is sent (sendAll).
        if (!turn.sending && isOwnFault(error)) throw error;
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
      // Accepted, the item with its entry (stepsOf). Outside the try: an outcome the store
      // could not write is a fault of the app's own (sending stops), not a refusal of this item.
      // Its turn goes to the next once it is done.
      run.accepted.push(outcome.follow);
      if (turn.unwritten) throw turn.unwritten.error;
      this.deps.announce(batch.id, item.position);
      return;
    }
  }

  /** What one item's execution sends: its rows under the batch's review. */
  private requestOf(batch: StoredBatch, item: StoredBatchItem): ExecutionRequest {
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
      confirmation: {
        planKey: item.planKey ?? '',
        acknowledgedStale: item.acknowledged,
        againAfter: null,
      },
    };
  }

  /**
   * An armed item that did not go out (its turn did not come: the batch stopped; it was taken
   * elsewhere; its sent mark could not be written): its entry, still pending, is withdrawn, in
   * the batch's words for why or plain ones. Never sent.
   */
  private withdrawUnsent(armed: Armed, error: unknown): void {
    if (this.deps.store.journal.get(armed.entry.id)?.state !== 'pending') return;
    const words =
      error instanceof TakenElsewhere
        ? 'Not sent: another window sends it.'
        : error instanceof StoppedBeforeSending
          ? error.message
          : 'Not sent.';
    this.deps.execution.withdraw(armed, words);
  }

  /**
   * The item in step with its entry, in the journal's transactions: moved ready -> sending as
   * its entry is marked sent (once, here or in another window: the move is conditional, and one
   * taken elsewhere sends nothing here), and to accepted as the 202 is written; its turn given
   * to the next as the 202 comes.
   */
  private stepsOf(
    batch: StoredBatch,
    item: StoredBatchItem,
    turn: Turn,
    armed: Armed,
    run: Run,
    index: number,
  ): SendSteps {
    const { store } = this.deps;
    return {
      // The answer is in: the next item is marked sent and its request leaves before this 202's
      // writing, in the same turn of the event loop (SendSteps.answered).
      answered: () => run.giveBack(index),
      sending: () => {
        if (!store.batches.move(batch.id, item.position, 'ready', 'sending'))
          throw new TakenElsewhere();
        turn.sending = true;
        // Told with the batch's next announcement, after this commit.
        this.deps.announce(batch.id, item.position);
      },
      accepted: (version) => {
        // In a savepoint of its own: an item the store refuses to move keeps the answer written
        // (its entry accepted, its version stored), and sending stops on that fault (sendOne).
        try {
          store.transaction(() =>
            store.batches.move(batch.id, item.position, 'sending', 'accepted', {
              journalId: armed.entry.id,
              versionId: version.id,
            }),
          );
        } catch (error) {
          turn.unwritten = { error };
        }
      },
    };
  }

  /**
   * A 429: nothing was executed (a definite refusal). Its turn goes back and it reads ready
   * again, not sending, until its next turn (the view never shows more sending than the
   * concurrency). The profile's budget decides the wait (Connections.pauseAfter429) and holds
   * every turn meanwhile. True when it is to be sent again once the pause is over, under the
   * same review, its plan key checked again; false when it was settled not sent.
   */
  private async waitAfter429(
    batch: StoredBatch,
    item: StoredBatchItem,
    index: number,
    run: Run,
    turn: Turn,
    refusals: number,
    error: unknown,
    journalId: string | null,
  ): Promise<boolean> {
    const { store, connections } = this.deps;
    const again = connections.pauseAfter429(batch.profileId, error, refusals);
    if (turn.sending) store.batches.move(batch.id, item.position, 'sending', 'ready');
    turn.sending = false;
    run.giveBack(index);
    if (!again) {
      this.settle(batch, item, turn, 'not-sent', {
        reason: `Not sent: the service kept answering 429 (too many requests), ${refusals} times. Review it again.`,
        errorKind: 'rate-limited',
        journalId,
      });
      return false;
    }
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
    turn: Turn,
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
    turn: Turn,
    to: Parameters<Store['batches']['move']>[3],
    outcome: ItemOutcome,
  ): void {
    const from = turn.sending ? 'sending' : 'ready';
    this.deps.store.batches.move(batch.id, item.position, from, to, outcome);
    this.deps.announce(batch.id, item.position);
  }
}
