import { randomUUID } from 'node:crypto';
import type { PastedIds } from '../../../shared/book/paste';
import type { AddOutcome, AddOutcomeLine, BookJob } from '../../../shared/book/views';
import { isServiceError } from '../api';
import type { RequestBudget } from '../api/budget';
import { toDeskError } from '../errors';
import type { ReadBatch, ReadResult } from './read-queue';
import type { HeldBookSettings } from './settings';

/**
 * The book's two kinds of read batches: a refresh (of all or of chosen strategies) and an add
 * (the lines of a paste). Each counts its progress, tells the book's announcer as it moves, and
 * gives its view with the pace of its profile's request budget; an add keeps every line's outcome.
 */

/** Whom a job tells as it moves: the book's announcer (announce.ts). */
export interface JobAnnouncer {
  /** The job moved: told soon, or at once (`now`: its end). */
  jobMoved(profileId: string, job: BookBatch, now: boolean): void;
}

/** Where a job belongs and whom it tells. */
export interface BookBatchContext {
  profileId: string;
  now(): string;
  /** Its profile's one request budget: the pace its view shows. */
  budget: RequestBudget;
  settings: HeldBookSettings;
  announcer: JobAnnouncer;
}

/** Ids read from one paste at most; the lines after get the outcome "over-limit". */
export const MAX_IDS_PER_ADD = 10_000;

export abstract class BookBatch implements ReadBatch {
  readonly id = randomUUID();
  state: BookJob['state'] = 'running';
  total = 0;
  done = 0;
  failed = 0;
  inFlight = 0;
  endedAt: string | null = null;
  /** Strategies not settled yet. */
  protected readonly left = new Set<string>();
  /** Strategies this batch read (stored, or failed) and not yet announced. */
  readonly touched = new Set<string>();

  readonly startedAt: string;
  /** Told after every change of the batch; none once its profile's reads are forgotten. */
  private announcer: JobAnnouncer | null;

  constructor(
    readonly kind: BookJob['kind'],
    protected readonly context: BookBatchContext,
  ) {
    this.startedAt = context.now();
    this.announcer = context.announcer;
  }

  active(): boolean {
    return this.state === 'running';
  }

  get finished(): boolean {
    return this.state !== 'running';
  }

  inFlightChanged(delta: number): void {
    this.inFlight += delta;
  }

  settle(strategyId: string, result: ReadResult): void {
    if (!this.left.delete(strategyId)) return;
    if (result.ok) this.done++;
    else if (!result.cancelled) {
      this.done++;
      this.failed++;
    }
    if (!(!result.ok && result.cancelled)) this.touched.add(strategyId);
    this.settled(strategyId, result);
    if (this.left.size === 0 && this.state === 'running') this.end('finished');
    // Its end is told at once (a cancel is told by whoever cancelled, once all is settled).
    this.announcer?.jobMoved(this.context.profileId, this, this.state === 'finished');
  }

  /** Its profile's reads were forgotten (removed, its address changed): it tells nothing more. */
  forget(): void {
    this.announcer = null;
  }

  /** A batch with nothing to read ends at once. */
  finishIfEmpty(): void {
    if (this.left.size === 0 && this.state === 'running') this.end('finished');
  }

  /** Stops the batch (the queue settles what it held); the caller announces it. */
  cancel(): void {
    if (this.state !== 'running') return;
    this.end('cancelled');
  }

  protected end(state: 'finished' | 'cancelled'): void {
    this.state = state;
    this.endedAt = this.context.now();
  }

  protected abstract settled(strategyId: string, result: ReadResult): void;

  /** The job as the screens show it, with its profile's pace. */
  view(): BookJob {
    const { budget, settings } = this.context;
    const setting = settings.current.refreshConcurrency;
    return {
      id: this.id,
      kind: this.kind,
      state: this.state,
      total: this.total,
      done: this.done,
      failed: this.failed,
      inFlight: this.inFlight,
      waitingUntil: this.state === 'running' ? (budget.waitingUntil?.toISOString() ?? null) : null,
      concurrency: Math.min(setting, budget.atOnce),
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      outcomes: null,
      lines: null,
    };
  }
}

export class RefreshBatch extends BookBatch {
  /** A refresh of these strategies (with none, it ends at once). */
  constructor(strategyIds: readonly string[], context: BookBatchContext) {
    super('refresh', context);
    this.take(strategyIds);
  }

  /**
   * More strategies to read (those not waiting already); returns the ones taken. With nothing
   * to read, the refresh ends at once.
   */
  take(strategyIds: readonly string[]): string[] {
    const taken = strategyIds.filter((id) => !this.left.has(id));
    for (const id of taken) this.left.add(id);
    this.total += taken.length;
    this.finishIfEmpty();
    return taken;
  }

  has(strategyId: string): boolean {
    return this.left.has(strategyId);
  }

  protected settled(): void {
    // A refresh counts; its rows are announced from `touched`.
  }
}

export class AddBatch extends BookBatch {
  /** Every pasted line that is not blank, with its outcome so far (null: not read yet). */
  readonly lines: AddOutcomeLine[];
  private readonly lineOf = new Map<string, number>();
  private readonly counts: Record<AddOutcome, number> = {
    added: 0,
    'already-added': 0,
    'not-found': 0,
    'not-an-id': 0,
    duplicate: 0,
    header: 0,
    failed: 0,
    cancelled: 0,
    'over-limit': 0,
    waiting: 0,
  };

  constructor(
    pasted: PastedIds,
    /** The name of a strategy the app holds, or null. */
    private readonly heldName: (strategyId: string) => string | null,
    context: BookBatchContext,
  ) {
    super('add', context);
    let ids = 0;
    this.lines = pasted.lines.map((line, index): AddOutcomeLine => {
      const base = { line: line.line, text: line.text, strategyId: line.id };
      switch (line.kind) {
        case 'header':
          return this.count({ ...base, outcome: 'header', detail: 'Taken for a header' });
        case 'not-an-id':
          return this.count({ ...base, outcome: 'not-an-id', detail: null });
        case 'duplicate':
          return this.count({
            ...base,
            outcome: 'duplicate',
            detail: `The same id as line ${line.firstLine}`,
          });
        case 'id': {
          const name = heldName(line.id!);
          if (name !== null) return this.count({ ...base, outcome: 'already-added', detail: name });
          if (++ids > MAX_IDS_PER_ADD)
            return this.count({
              ...base,
              outcome: 'over-limit',
              detail: `Not read: one paste adds at most ${MAX_IDS_PER_ADD.toLocaleString('en-US')} ids`,
            });
          this.lineOf.set(line.id!, index);
          this.left.add(line.id!);
          // Counted once read.
          return { ...base, outcome: 'waiting', detail: null };
        }
      }
    });
    this.total = this.left.size;
    this.finishIfEmpty();
  }

  /** The ids to read, in the order they were pasted. */
  get toRead(): string[] {
    return [...this.left];
  }

  protected settled(strategyId: string, result: ReadResult): void {
    const line = this.lines[this.lineOf.get(strategyId)!]!;
    if (result.ok) {
      // Settled once stored (and on disk): named as the app holds it.
      line.outcome = 'added';
      line.detail = this.heldName(strategyId);
    } else if (result.cancelled) {
      line.outcome = 'cancelled';
      line.detail = 'Not added: cancelled';
    } else if (isServiceError(result.error, 'not-found')) {
      line.outcome = 'not-found';
      line.detail = 'Not found, or of another organization';
    } else {
      line.outcome = 'failed';
      line.detail = toDeskError(result.error).message;
    }
    this.count(line);
  }

  /** Counts a line's outcome (a line is counted once, when its outcome is final). */
  private count(line: AddOutcomeLine): AddOutcomeLine {
    this.counts[line.outcome]++;
    return line;
  }

  override view(): BookJob {
    const outcomes = { ...this.counts, waiting: this.state === 'running' ? this.left.size : 0 };
    return { ...super.view(), outcomes, lines: this.lines.length };
  }
}
