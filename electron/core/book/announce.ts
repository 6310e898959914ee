import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BookSort } from '../../../shared/book/flags';
import type { DeskEvent, DeskEventOf } from '../../../shared/contract';
import { Throttle } from '../../../shared/throttle';
import type { BookBatch } from './jobs';
import type { WorkedOut } from './rows';

/** How often progress and the rows it changed are announced while reads go on. */
const ANNOUNCE_EVERY_MS = 150;

/**
 * Rows worked out in one turn of the event loop before an announcement on the timer: a few
 * milliseconds, so an answer that arrives meanwhile (a batch's 202) waits for no long task.
 */
export const ROWS_PER_TURN = 8;

/** What an announcement tells of the rows, composed in one call (queries.ts). */
export interface AnnouncedRows {
  /** The rows that moved (those worked out now join them) with the counts; null when none. */
  rowsChanged(
    profileId: string,
    moved: Set<string>,
    places: Set<BookSort>,
    added: boolean,
  ): DeskEventOf<'book-rows-changed'> | null;
  /** Works out the first `limit` marked rows of the profile; `more` when marks are left. */
  workOutSome(profileId: string, limit: number): WorkedOut & { more: boolean };
}

interface Pending {
  throttle: Throttle;
  /** Strategies whose rows moved since the last announcement. */
  rows: Set<string>;
  /** The sorts under which they may have changed place. */
  places: Set<BookSort>;
  /** Strategies were added since the last announcement (the counts tell it). */
  added: boolean;
  jobs: Set<BookBatch>;
}

/**
 * The book's one way to announce (docs/book.md): what moved (rows, a job, strategies added) is
 * gathered per profile and told in one `book-rows-changed` (the rows that moved, the counts)
 * and one `book-job-changed` per job, at most every ANNOUNCE_EVERY_MS (`soon`), or at once
 * (`now`: a job's end). A job whose cancel waits for the disk is told once it is done.
 */
export class BookAnnouncer {
  private readonly pending = new Map<string, Pending>();
  /** Profiles whose marked rows the timer is working out, a few per turn. */
  private readonly working = new Set<string>();
  /** Cancelled jobs whose committed strategies wait for the disk: their end is told after. */
  readonly settling = new Set<BookBatch>();
  private closed = false;

  constructor(
    private readonly book: AnnouncedRows,
    private readonly emit: (event: DeskEvent) => void,
    /** Where an announcement that could not be made on a timer is told (the desk's log). */
    private readonly onFault?: (profileId: string, error: unknown) => void,
  ) {}

  /** These strategies' rows moved (in the order of these sorts): told with the next announcement. */
  rowsMoved(profileId: string, strategyIds: Iterable<string>, places: Iterable<BookSort>): void {
    const pending = this.of(profileId);
    for (const id of strategyIds) pending.rows.add(id);
    for (const sort of places) pending.places.add(sort);
    this.soon(profileId);
  }

  /**
   * A job moved: told soon, or at once (`now`: its end). The strategies it read since are told
   * with it: a refresh's rows, or an add's strategies in the counts (they are in no screen's rows
   * yet).
   */
  jobMoved(profileId: string, job: BookBatch, now = false): void {
    const pending = this.of(profileId);
    pending.jobs.add(job);
    if (job.touched.size > 0) {
      if (job.kind === 'add') pending.added = true;
      else {
        for (const id of job.touched) pending.rows.add(id);
        // A read moves its strategy's sync time, and the flags it clears or sets (not synced,
        // refresh failed), whatever else it changed (the rows' work-out tells that).
        pending.places.add('synced');
        pending.places.add('flags');
      }
      job.touched.clear();
    }
    if (now) this.now(profileId);
    else this.soon(profileId);
  }

  /** Told within ANNOUNCE_EVERY_MS, with whatever else moves meanwhile. */
  soon(profileId: string): void {
    if (!this.closed) this.of(profileId).throttle.soon();
  }

  /** Announces what moved now (and the rows the store marked meanwhile). */
  now(profileId: string): void {
    const pending = this.pending.get(profileId);
    if (!pending || this.closed) return;
    // What is told now is not told again on the timer.
    pending.throttle.cancel();
    const jobs = [...pending.jobs];
    pending.jobs.clear();
    const { rows, places, added } = pending;
    pending.rows = new Set();
    pending.places = new Set();
    pending.added = false;
    const rowsChanged = this.book.rowsChanged(profileId, rows, places, added);
    if (rowsChanged) this.emit(rowsChanged);
    for (const job of jobs)
      if (!this.settling.has(job))
        this.emit({ type: 'book-job-changed', profileId, job: job.view() });
  }

  forget(profileId: string): void {
    this.pending.get(profileId)?.throttle.cancel();
    this.pending.delete(profileId);
  }

  close(): void {
    this.closed = true;
    for (const profileId of [...this.pending.keys()]) this.forget(profileId);
  }

  private of(profileId: string): Pending {
    let pending = this.pending.get(profileId);
    if (!pending) {
      pending = {
        throttle: new Throttle(ANNOUNCE_EVERY_MS, () => void this.fromTimer(profileId)),
        rows: new Set(),
        places: new Set(),
        added: false,
        jobs: new Set(),
      };
      this.pending.set(profileId, pending);
    }
    return pending;
  }

  /**
   * The throttle's run, on a timer: the marked rows worked out ROWS_PER_TURN at a time, each
   * in its own turn of the loop, then all told in one announcement (one run at a time; what moves
   * meanwhile joins it). A store that cannot be written now (another process's long write, a
   * fault) leaves the rows marked for the next announcement, never an exception out of a timer,
   * which would end the app.
   */
  private async fromTimer(profileId: string): Promise<void> {
    if (this.working.has(profileId)) return;
    this.working.add(profileId);
    try {
      for (;;) {
        const { strategyIds, places, more } = this.book.workOutSome(profileId, ROWS_PER_TURN);
        const pending = this.of(profileId);
        for (const id of strategyIds) pending.rows.add(id);
        for (const sort of places) pending.places.add(sort);
        if (!more) break;
        await nextTurn();
        // Closed, or the profile forgotten (removed) meanwhile: nothing to tell.
        if (this.closed || !this.pending.has(profileId)) return;
      }
      this.now(profileId);
    } catch (error) {
      this.onFault?.(profileId, error);
    } finally {
      this.working.delete(profileId);
    }
  }
}
