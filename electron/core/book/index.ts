import { readPastedIds, type PastedIds } from '../../../shared/book/paste';
import { runInSlices } from '../slices';
import type { BookJob, BookSelection, BookSettings, BookSummary } from '../../../shared/book/views';
import type { DeskEvent } from '../../../shared/contract';
import type { Strategy } from '../../../shared/domain/resources';
import { DeskError, deskError } from '../../../shared/errors';
import type { RequestBudget } from '../api/budget';
import type { Connections } from '../profiles/connections';
import type { Store } from '../store';
import { noteNotRead, type StrategySync } from '../strategies/sync';
import type { BookAnnouncer } from './announce';
import { startAutoRefresh } from './auto-refresh';
import { AddBatch, RefreshBatch, type BookBatch, type BookBatchContext } from './jobs';
import { BookQueries } from './queries';
import { ProfileReadQueue } from './read-queue';
import { HeldBookSettings } from './settings';

export { DEFAULT_BOOK_SETTINGS, readBookSettings } from './settings';
export { BOOK_CSV, HOLDINGS_CSV, type BookCsv } from './export';

export interface BookDeps {
  store: Store;
  /** The one strategy read: fetched, then stored together (strategies/sync.ts). */
  strategySync: Pick<StrategySync, 'fetch' | 'storeAll'>;
  /**
   * The profile's connection: the book's reads in its bulk lane, the pace of its one request
   * budget (a 429's pause, the requests at once), and the policy's word on reading again.
   */
  connections: Pick<Connections, 'inBulk' | 'pauseAfter429' | 'budget'>;
  emit(event: DeskEvent): void;
  now(): string;
  /** Where an announcement that could not be made is told (the desk's log). */
  onAnnounceFault?(profileId: string, error: unknown): void;
}

/** A profile's reads of many strategies: its queue and its two jobs. */
interface ProfileReads {
  queue: ProfileReadQueue<Strategy>;
  refresh: RefreshBatch | null;
  add: AddBatch | null;
  /** A paste is being read for an add (in slices): another add waits its end. */
  addReading: boolean;
  /** What its jobs are made with: the profile, its one request budget, whom they tell. */
  context: BookBatchContext;
  /** Stops hearing the budget's pace. */
  unwatch: () => void;
}

/**
 * The book of each profile (docs/book.md): its reads of many strategies (a refresh, an add)
 * through one queue per profile, paced by the profile's request budget, and its settings. What
 * the screens read of it (rows, counts, selections, exposure) is its queries' (queries.ts); what
 * moved is told through the announcer (announce.ts), which the jobs tell themselves (jobs.ts).
 */
export class Book {
  readonly queries: BookQueries;
  private readonly settingsHeld: HeldBookSettings;
  private readonly announcer: BookAnnouncer;
  private readonly reads = new Map<string, ProfileReads>();
  private closed = false;
  private stopAuto: (() => void) | undefined;

  constructor(private readonly deps: BookDeps) {
    this.settingsHeld = new HeldBookSettings(deps.store);
    this.queries = new BookQueries({ ...deps, settings: this.settingsHeld });
    this.announcer = this.queries.announcer;
  }

  settings(): BookSettings {
    return this.settingsHeld.current;
  }

  saveSettings(patch: Partial<BookSettings>): BookSettings {
    return this.settingsHeld.save(patch);
  }

  /**
   * Something the rows derive from changed outside the book's reads (a version's status, the
   * journal): the rows it moved (those the store's triggers marked) are announced soon, with the
   * book's counts. Many changes in a burst make one announcement.
   */
  rowsMayHaveMoved(profileId: string): void {
    this.announcer.soon(profileId);
  }

  summary(profileId: string): BookSummary {
    const reads = this.reads.get(profileId);
    return {
      counts: this.queries.counts(profileId),
      refresh: reads?.refresh?.view() ?? null,
      add: reads?.add?.view() ?? null,
      settings: this.settingsHeld.current,
    };
  }

  /**
   * Reads the selected strategies again, in the book's order; joins a refresh under way with
   * those it lacks. Its progress and the rows it reads are announced as they move.
   */
  refresh(profileId: string, selection: BookSelection): BookJob {
    const ids = this.queries.selected(profileId, selection);
    const reads = this.readsOf(profileId);
    let job = reads.refresh;
    let taken: readonly string[];
    if (!job || job.finished) {
      job = reads.refresh = new RefreshBatch(ids, reads.context);
      taken = ids;
    } else taken = job.take(ids);
    reads.queue.add(job, taken);
    // Told with the first progress (its end at once): the caller has its view.
    this.announcer.jobMoved(profileId, job, job.finished);
    return job.view();
  }

  cancelRefresh(profileId: string): Promise<void> {
    return this.cancel(profileId, (reads) => reads.refresh);
  }

  /**
   * Reads every id of a paste not in the app yet; each line gets its outcome. The paste is read
   * in slices, the event loop turning in between: a million characters hold nothing else up.
   */
  async addMany(profileId: string, text: string): Promise<BookJob> {
    if (text.includes('\0'))
      throw new DeskError({
        kind: 'invalid-input',
        message:
          'This is not text (it holds binary data, as a spreadsheet or an archive does): paste the ids, or choose a text or CSV file.',
      });
    const reads = this.readsOf(profileId);
    if (reads.addReading || (reads.add && !reads.add.finished)) throw deskError('busy');
    reads.addReading = true;
    let pasted: PastedIds;
    try {
      pasted = await runInSlices(readPastedIds(text));
    } finally {
      reads.addReading = false;
    }
    if (this.closed || this.reads.get(profileId) !== reads)
      throw new DeskError({
        kind: 'not-found',
        message:
          'The profile was removed, or its address changed, while the list was read: nothing was added.',
      });
    const { store } = this.deps;
    const job = new AddBatch(pasted, (id) => store.strategies.nameOf(profileId, id), reads.context);
    reads.add = job;
    reads.queue.add(job, job.toRead);
    this.announcer.jobMoved(profileId, job, true);
    return job.view();
  }

  cancelAdd(profileId: string): Promise<void> {
    return this.cancel(profileId, (reads) => reads.add);
  }

  /** Cancels a job; its end is announced (and this resolves) once what it stored is on disk. */
  private async cancel(profileId: string, of: (reads: ProfileReads) => BookBatch | null) {
    const reads = this.reads.get(profileId);
    const job = reads && of(reads);
    if (!reads || !job || job.finished) return;
    job.cancel();
    this.announcer.settling.add(job);
    await reads.queue.cancel(job); // never fails: each strategy settles, stored or failed
    this.announcer.settling.delete(job);
    this.announcer.jobMoved(profileId, job, true);
  }

  /** The last add's lines, a window at a time. */
  addOutcomes(profileId: string, jobId: string) {
    const add = this.reads.get(profileId)?.add;
    if (!add || add.id !== jobId) throw deskError('not-found');
    return add.lines;
  }

  /** Forgets the profile's queue (the profile was removed, or its address changed). */
  forget(profileId: string): void {
    const reads = this.reads.get(profileId);
    this.announcer.forget(profileId);
    if (!reads) return;
    reads.unwatch();
    reads.queue.close();
    reads.refresh?.forget();
    reads.add?.forget();
    this.reads.delete(profileId);
  }

  /** Whether a refresh of the profile is under way. */
  refreshing(profileId: string): boolean {
    const refresh = this.reads.get(profileId)?.refresh;
    return refresh !== null && refresh !== undefined && !refresh.finished;
  }

  /** The optional automatic refresh (auto-refresh.ts), through the one refresh. */
  startAutoRefresh(auto: {
    profiles(): string[];
    isOnline(profileId: string): boolean;
    minuteMs?: number;
  }): void {
    this.stopAuto?.();
    this.stopAuto = startAutoRefresh({
      ...auto,
      settings: () => this.settingsHeld.current,
      refreshing: (profileId) => this.refreshing(profileId),
      dueBefore: (profileId, before) => this.queries.dueBefore(profileId, before),
      refresh: (profileId, selection) => {
        if (!this.closed) this.refresh(profileId, selection);
      },
      now: this.deps.now,
    });
  }

  close(): void {
    this.closed = true;
    this.stopAuto?.();
    for (const profileId of [...this.reads.keys()]) this.forget(profileId);
    this.announcer.close();
  }

  private readsOf(profileId: string): ProfileReads {
    let reads = this.reads.get(profileId);
    if (reads) return reads;
    const { strategySync, connections, now } = this.deps;
    const budget: RequestBudget = connections.budget(profileId);
    const announcer = this.announcer;
    reads = {
      // The work the queue is given: read in the bulk lane, store together, the budget's word on
      // a 429, the setting, a strategy not read.
      queue: new ProfileReadQueue(profileId, {
        fetch: (p, s, signal) => connections.inBulk(() => strategySync.fetch(p, s, signal)),
        store: (p, strategies) => strategySync.storeAll(p, strategies),
        pauseAfter429: (p, error, refusals) => connections.pauseAfter429(p, error, refusals),
        concurrency: () => this.settingsHeld.current.refreshConcurrency,
        notRead: (p, s, reason) => {
          noteNotRead(this.deps, p, s, reason);
          announcer.rowsMoved(p, [s], ['flags']);
        },
      }),
      refresh: null,
      add: null,
      addReading: false,
      context: { profileId, now, budget, settings: this.settingsHeld, announcer },
      // The budget's pace is what the running jobs show: told as it changes.
      unwatch: budget.onPaced(() => this.paced(profileId)),
    };
    this.reads.set(profileId, reads);
    return reads;
  }

  /** The profile's pace changed: its running jobs show it. */
  private paced(profileId: string): void {
    const reads = this.reads.get(profileId);
    if (!reads || this.closed) return;
    for (const job of [reads.refresh, reads.add])
      if (job && !job.finished) this.announcer.jobMoved(profileId, job);
  }
}
