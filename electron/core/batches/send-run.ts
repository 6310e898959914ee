import type { RequestBudget } from '../api/budget';
import type { ExecutionOutcome } from '../execution/execute';
import { faultWords } from './outcomes';

/**
 * One run of a batch's send (send.ts): its turns to send, the wait while the profile's budget
 * holds a 429's pause, and what stops it (cancel, the first failure, a fault of the app's own),
 * in the words its unsent items keep.
 *
 * Turns: at most `limit` executions between their claim and the service's answer, their first
 * sends taken in the items' order. An item checks itself against its fresh read before its turn
 * and settles the answer after giving it back, so those steps of one item overlap the sends of
 * others while the number at the service stays the batch's concurrency. Every index either
 * takes its turn or passes it (an item that will not send); a later index waits for the ones
 * before it. A second take by an index whose turn has come (sending again after a 429) only
 * waits for a free slot. Once stopped, every waiting take resolves at once: the caller sees the
 * stop and sends nothing.
 */

/**
 * What stops a run, in the words its unsent items keep; a fault of the app's own also says why
 * at batch level (`why`, kept on the batch: its words and its end's entry say it).
 */
export type Stop =
  | { state: 'cancelled' | 'halted'; reason: string }
  | { state: 'stopped'; reason: string; why: string };

/** An item whose turn came after the batch stopped: nothing was sent (its entry is withdrawn). */
export class StoppedBeforeSending extends Error {}

export class Run {
  stop: Stop | null = null;
  /** The app's own failure that stopped sending (the first), if one did. */
  fault: { error: unknown } | null = null;
  /** The versions accepted so far, followed once sending is over. */
  readonly accepted: ExecutionOutcome['follow'][] = [];
  done!: Promise<void>;
  /** Aborted when the run stops: a wait for the budget's pause ends at once. */
  private readonly stopped = new AbortController();
  /** The index whose first turn comes next. */
  private next = 0;
  private inFlight = 0;
  private readonly passed = new Set<number>();
  private waiters: (() => void)[] = [];
  /** Turns taken and not given back yet, by item index. */
  private readonly held = new Set<number>();

  constructor(
    private readonly limit: number,
    /** The profile's one request budget: its 429 pause is the run's (api/budget.ts). */
    private readonly budget: Pick<RequestBudget, 'pauseOver' | 'waitingUntil'>,
  ) {}

  /** The time sending waits until for a 429 (null: not waiting): the budget's pause. */
  get pausedUntil(): Date | null {
    return this.budget.waitingUntil;
  }

  /**
   * Waits for an item's turn to send (once a slot is free, its index's turn has come and no
   * 429's pause holds); throws when the batch stopped.
   */
  async takeTurn(index: number): Promise<void> {
    while (this.stop === null && !(this.inFlight < this.limit && index <= this.next))
      await new Promise<void>((wake) => this.waiters.push(wake));
    if (this.stop !== null) throw new StoppedBeforeSending(this.stop.reason);
    if (index === this.next) this.advance();
    this.inFlight++;
    this.held.add(index);
    // Marked sent only once the service takes requests again: a kill meanwhile leaves it unsent.
    await this.waitWhilePaused();
    const stop = this.stop as Stop | null; // a cancel may have come meanwhile
    if (stop === null) return;
    this.giveBack(index);
    throw new StoppedBeforeSending(stop.reason);
  }

  /** The item's turn is over (its answer came, or it failed and the run decided what next). */
  giveBack(index: number): void {
    if (!this.held.delete(index)) return;
    this.inFlight--;
    this.wakeAll();
  }

  /** The item is done: its turn, taken or not, goes to the next. */
  itemDone(index: number): void {
    this.giveBack(index);
    if (index < this.next) return;
    this.passed.add(index);
    if (index === this.next) this.advance();
  }

  /** Waits while the profile's budget holds a 429's pause (or until stopped). */
  waitWhilePaused(): Promise<void> {
    return this.budget.pauseOver(this.stopped.signal);
  }

  halt(stop: Stop): void {
    this.stop ??= stop;
    this.stopped.abort();
    this.wakeAll();
  }

  /** The app failed while sending (a write refused): nothing more is sent, in these words. */
  failed(error: unknown): void {
    this.fault ??= { error };
    const why = faultWords(error);
    this.halt({
      state: 'stopped',
      reason: `Not sent: sending stopped, ${why.item}. Review it again.`,
      why: why.batch,
    });
  }

  /** Why the batch stopped, kept on it: only a fault's (a cancel or a failure says itself). */
  get stopReason(): string | null {
    return this.stop?.state === 'stopped' ? this.stop.why : null;
  }

  private advance(): void {
    this.next++;
    while (this.passed.delete(this.next)) this.next++;
    this.wakeAll();
  }

  private wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
