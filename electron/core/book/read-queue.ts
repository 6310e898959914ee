import { isServiceError } from '../api';

/**
 * One queue per profile for reading many strategies (the book's refresh and its "Add many"):
 * which strategies are read, in what order, and each batch's progress. At most the refresh
 * setting's number of its reads are handed to the profile's request budget at once; the pace at
 * the service is the budget's alone (api/budget.ts: the requests at once, a 429's pause and the
 * halving after it, whoever else asks meanwhile). A read refused for the rate goes back first in
 * line, as often as the profile's one retry policy allows (Connections.pauseAfter429, which also
 * decides its wait), and waits in the budget's line; a read that fails otherwise settles its
 * strategy with that failure, and every other strategy goes on. When the service stops answering
 * altogether (UNREACHABLE_IN_A_ROW
 * reads in a row got no answer) the strategies still waiting settle as not read, with that reason,
 * instead of each waiting out its own retries.
 *
 * Answers are stored together (group commit): those that arrived while others were under way are
 * written in one transaction, each strategy whole, at most FLUSH_AFTER_MS after the first of them
 * (at once when no read is left under way, or when FLUSH_AT have gathered). After a group that
 * added strategies, the next waits twice as long, up to FLUSH_AFTER_MAX_MS: the first answers are
 * stored (and shown) soon, and a long add writes larger groups, which cost less per strategy (a
 * transaction writes each page it touched once, however many strategies touched it, and adding
 * one inserts into pages all over the indexes; fewer pages also mean fewer WAL checkpoints). A
 * refresh's groups, which mostly rewrite rows in place, keep to FLUSH_AFTER_MS. Adding strategies
 * writes an activity entry each: the store gives back a promise, and the group's strategies are
 * settled (stored, "added") only once the WAL holding them is fsynced, off the event loop and
 * shared by the groups that wait together, while the next reads go on. Cancelling leaves every
 * strategy as it was or fully refreshed: reads not started never start, reads under way are
 * aborted, answers already in hand are stored whole.
 */

export const FLUSH_AT = 512;
export const FLUSH_AFTER_MS = 250;
export const FLUSH_AFTER_MAX_MS = 1_000;
export const UNREACHABLE_IN_A_ROW = 4;

export type ReadResult = { ok: true } | { ok: false; error: unknown; cancelled: boolean };

/** A set of strategies read together (one refresh, or one add), with its own progress. */
export interface ReadBatch {
  readonly id: string;
  /** False once cancelled: its waiting reads never start. */
  active(): boolean;
  /** A strategy's read ended (stored, failed or cancelled). */
  settle(strategyId: string, result: ReadResult): void;
  /** The number of its reads under way changed. */
  inFlightChanged(delta: number): void;
}

export interface ReadQueueDeps<Answer> {
  /** Reads the strategy from the service (StrategySync.fetch). */
  fetch(profileId: string, strategyId: string, signal: AbortSignal): Promise<Answer>;
  /**
   * Stores answers in one transaction, each whole (StrategySync.storeAll). A promise when what it
   * committed must reach the disk before the answers count as stored: it resolves once they have.
   */
  store(profileId: string, answers: Answer[]): Promise<void> | undefined;
  /**
   * A read answered 429 for the `refusals`-th time in a row: whether it is read again (the
   * budget paused for its wait meanwhile) or its attempts are spent (Connections.pauseAfter429).
   */
  pauseAfter429(profileId: string, error: unknown, refusals: number): boolean;
  /** The queue's reads handed to the budget at once at most (the book's setting). */
  concurrency(): number;
  /** The service stopped answering: the strategies still waiting were not read. */
  notRead(profileId: string, strategyId: string, reason: unknown): void;
}

interface Task {
  strategyId: string;
  batch: ReadBatch;
  rateRetries: number;
}

interface Answered<Answer> {
  task: Task;
  answer: Answer;
}

/** A group committed, waiting for the disk before its strategies are settled. */
interface Syncing<Answer> {
  group: Answered<Answer>[];
  settled: Promise<void>;
}

export class ProfileReadQueue<Answer> {
  private waiting: Task[] = [];
  /** Answers in hand, not stored yet. */
  private answered: Answered<Answer>[] = [];
  private readonly syncing = new Set<Syncing<Answer>>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** How long the next group gathers answers: FLUSH_AFTER_MS, longer after groups added. */
  private flushAfter = FLUSH_AFTER_MS;
  private head = 0;
  private readonly running = new Map<Task, AbortController>();
  private unreachableInARow = 0;
  private closed = false;

  constructor(
    readonly profileId: string,
    private readonly deps: ReadQueueDeps<Answer>,
  ) {}

  get idle(): boolean {
    return (
      this.running.size === 0 &&
      this.head >= this.waiting.length &&
      this.answered.length === 0 &&
      this.syncing.size === 0
    );
  }

  add(batch: ReadBatch, strategyIds: readonly string[]): void {
    for (const strategyId of strategyIds) this.waiting.push({ strategyId, batch, rateRetries: 0 });
    this.pump();
  }

  /**
   * Stops a batch: the answers it has in hand are stored now, its reads not started never start,
   * its reads under way are aborted (an answer that still arrives is dropped, not stored).
   * Answers of the batch committed but not yet on disk are settled stored once they are: the
   * promise returned resolves then (undefined when none waits).
   */
  cancel(batch: ReadBatch): Promise<void> | undefined {
    if (this.answered.some((a) => a.task.batch === batch)) this.flush();
    for (let i = this.head; i < this.waiting.length; i++) {
      const task = this.waiting[i]!;
      if (task.batch === batch) task.batch.settle(task.strategyId, cancelledResult());
    }
    this.waiting = this.waiting.filter((t, i) => i < this.head || t.batch !== batch);
    for (const [task, controller] of this.running) if (task.batch === batch) controller.abort();
    this.pump();
    const settling = [...this.syncing]
      .filter((s) => s.group.some((a) => a.task.batch === batch))
      .map((s) => s.settled);
    return settling.length === 0 ? undefined : Promise.all(settling).then(() => undefined);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.flushTimer);
    for (const controller of this.running.values()) controller.abort();
  }

  private pump(): void {
    if (this.closed) return;
    // The setting is read once per pump, not once per read.
    const limit = this.deps.concurrency();
    while (this.running.size < limit && this.head < this.waiting.length) {
      const task = this.waiting[this.head++]!;
      if (task.batch.active()) void this.run(task);
    }
    // The read part of the list is dropped now and then, not on every start.
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    if (this.idle) this.flushAfter = FLUSH_AFTER_MS;
  }

  private async run(task: Task): Promise<void> {
    const controller = new AbortController();
    this.running.set(task, controller);
    task.batch.inFlightChanged(1);
    let answer: Answer;
    try {
      answer = await this.deps.fetch(this.profileId, task.strategyId, controller.signal);
    } catch (error) {
      this.running.delete(task);
      task.batch.inFlightChanged(-1);
      if (!this.closed) this.failed(task, error, controller.signal.aborted || isCancelled(error));
      return;
    }
    this.running.delete(task);
    task.batch.inFlightChanged(-1);
    if (this.closed) return;
    this.unreachableInARow = 0;
    if (!task.batch.active()) {
      // Cancelled while the answer was on its way: the strategy stays as it was.
      task.batch.settle(task.strategyId, cancelledResult());
      this.pump();
      return;
    }
    this.answered.push({ task, answer });
    // The next reads start first: a flush now would only wait for none of them.
    this.pump();
    this.scheduleFlush();
  }

  private failed(task: Task, error: unknown, cancelled: boolean): void {
    if (
      !cancelled &&
      isRateLimited(error) &&
      task.batch.active() &&
      this.deps.pauseAfter429(this.profileId, error, task.rateRetries + 1)
    ) {
      // First in line again: it waits in the budget's line until the pause is over.
      this.waiting.splice(this.head, 0, { ...task, rateRetries: task.rateRetries + 1 });
      this.pump();
      return;
    }
    task.batch.settle(task.strategyId, { ok: false, error, cancelled });
    if (!cancelled && isUnreachable(error)) {
      if (++this.unreachableInARow >= UNREACHABLE_IN_A_ROW) this.giveUpWaiting(error);
    } else if (!cancelled) this.unreachableInARow = 0;
    this.scheduleFlush();
    this.pump();
  }

  /** Stores the answers in hand now, or soon when more are on their way. */
  private scheduleFlush(): void {
    if (this.answered.length === 0) return;
    if (this.answered.length >= FLUSH_AT || this.running.size === 0) {
      this.flush();
      return;
    }
    this.flushTimer ??= setTimeout(() => this.flush(), this.flushAfter);
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.closed || this.answered.length === 0) return;
    const group = this.answered;
    this.answered = [];
    let durable: Promise<void> | undefined;
    try {
      durable = this.deps.store(
        this.profileId,
        group.map((g) => g.answer),
      );
    } catch (error) {
      this.settleGroup(group, { ok: false, error, cancelled: false });
      return;
    }
    if (durable === undefined) {
      this.settleGroup(group, { ok: true });
      return;
    }
    // Committed: settled once on disk. The reads go on meanwhile (they were started already).
    this.flushAfter = Math.min(this.flushAfter * 2, FLUSH_AFTER_MAX_MS);
    const syncing: Syncing<Answer> = { group, settled: Promise.resolve() };
    syncing.settled = durable.then(
      () => this.synced(syncing, { ok: true }),
      (error: unknown) => this.synced(syncing, { ok: false, error, cancelled: false }),
    );
    this.syncing.add(syncing);
  }

  private synced(syncing: Syncing<Answer>, result: ReadResult): void {
    this.syncing.delete(syncing);
    if (!this.closed) this.settleGroup(syncing.group, result);
  }

  private settleGroup(group: readonly Answered<Answer>[], result: ReadResult): void {
    for (const { task } of group) task.batch.settle(task.strategyId, result);
    this.pump();
  }

  /** The service answers no more: every strategy still waiting settles as not read. */
  private giveUpWaiting(reason: unknown): void {
    const left = this.waiting.slice(this.head);
    this.waiting = [];
    this.head = 0;
    for (const task of left) {
      if (!task.batch.active()) continue;
      this.deps.notRead(this.profileId, task.strategyId, reason);
      task.batch.settle(task.strategyId, { ok: false, error: reason, cancelled: false });
    }
  }
}

function cancelledResult(): ReadResult {
  return { ok: false, error: null, cancelled: true };
}

const isCancelled = (error: unknown): boolean => isServiceError(error, 'cancelled');
const isRateLimited = (error: unknown): boolean => isServiceError(error, 'rate-limited');
const isUnreachable = (error: unknown): boolean => isServiceError(error, 'network', 'timeout');
