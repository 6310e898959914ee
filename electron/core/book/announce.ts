import type { BookCounts, BookJob, BookRow } from '../../../shared/book/views';
import type { DeskEvent } from '../../../shared/contract';
import { Throttle } from '../../../shared/throttle';
import type { BookBatch } from './jobs';

/** How often progress and the rows it changed are announced while reads go on. */
const ANNOUNCE_EVERY_MS = 150;

/** What an announcement tells of the book (Book: its rows, counts and jobs as the screens show them). */
export interface AnnouncedBook {
  /** Brings the profile's rows up to date, telling `rowsMoved` which moved. */
  upToDate(profileId: string): void;
  /** The rows of these strategies as the contract carries them. */
  rowsOf(profileId: string, strategyIds: readonly string[]): BookRow[];
  counts(profileId: string): BookCounts;
  jobView(profileId: string, job: BookBatch): BookJob;
}

interface Pending {
  throttle: Throttle;
  /** Strategies whose rows moved since the last announcement. */
  rows: Set<string>;
  /** Strategies were added since the last announcement (the counts tell it). */
  added: boolean;
  jobs: Set<BookBatch>;
}

/**
 * The book's one way to announce (docs/book.md): what moved (rows, a job, strategies added) is
 * gathered per profile and told in one `book-rows-changed` (the rows that moved, the counts)
 * and one `book-job-changed` per job, at most every ANNOUNCE_EVERY_MS (`soon`), or at once
 * (`now`: a job's start and end). A job whose cancel waits for the disk is told once it is done.
 */
export class BookAnnouncer {
  private readonly pending = new Map<string, Pending>();
  /** Cancelled jobs whose committed strategies wait for the disk: their end is told after. */
  readonly settling = new Set<BookBatch>();
  private closed = false;

  constructor(
    private readonly book: AnnouncedBook,
    private readonly emit: (event: DeskEvent) => void,
    /** Where an announcement that could not be made on a timer is told (the desk's log). */
    private readonly onFault?: (profileId: string, error: unknown) => void,
  ) {}

  /** These strategies' rows moved: told with the next announcement. */
  rowsMoved(profileId: string, strategyIds: Iterable<string>): void {
    const pending = this.of(profileId);
    for (const id of strategyIds) pending.rows.add(id);
    this.soon(profileId);
  }

  /** Strategies were added (in no screen's rows yet): the counts tell it. */
  added(profileId: string): void {
    this.of(profileId).added = true;
  }

  /** A job moved: told soon, or at once when it ended or started (`now`). */
  jobMoved(profileId: string, job: BookBatch, now = false): void {
    this.of(profileId).jobs.add(job);
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
    // The rows the store marked join those that moved (upToDate tells them).
    this.book.upToDate(profileId);
    // What is told now is not told again on the timer.
    pending.throttle.cancel();
    const jobs = [...pending.jobs];
    pending.jobs.clear();
    const rows = [...pending.rows];
    pending.rows.clear();
    if (rows.length > 0 || pending.added) {
      pending.added = false;
      this.emit({
        type: 'book-rows-changed',
        profileId,
        rows: this.book.rowsOf(profileId, rows),
        counts: this.book.counts(profileId),
      });
    }
    for (const job of jobs)
      if (!this.settling.has(job))
        this.emit({ type: 'book-job-changed', profileId, job: this.book.jobView(profileId, job) });
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
        throttle: new Throttle(ANNOUNCE_EVERY_MS, () => this.fromTimer(profileId)),
        rows: new Set(),
        added: false,
        jobs: new Set(),
      };
      this.pending.set(profileId, pending);
    }
    return pending;
  }

  /**
   * The throttle's run, on a timer: a store that cannot be written now (another process's long
   * write, a fault) leaves the rows marked for the next announcement, never an exception out of
   * a timer, which would end the app.
   */
  private fromTimer(profileId: string): void {
    try {
      this.now(profileId);
    } catch (error) {
      this.onFault?.(profileId, error);
    }
  }
}
