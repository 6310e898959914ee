import { readPastedIds, type PastedIds } from '../../../shared/book/paste';
import { runInSlices } from '../slices';
import type {
  BookCounts,
  BookJob,
  BookPage,
  BookQuery,
  BookRow,
  BookSelection,
  BookSettings,
  BookSummary,
  ExposureView,
} from '../../../shared/book/views';
import type { DeskEvent } from '../../../shared/contract';
import type { Strategy } from '../../../shared/domain/resources';
import { DeskError, deskError } from '../../../shared/errors';
import type { RequestBudget } from '../api/budget';
import type { Connections } from '../profiles/connections';
import type { Store } from '../store';
import { noteNotRead, type StrategySync } from '../strategies/sync';
import { BookAnnouncer } from './announce';
import { startAutoRefresh } from './auto-refresh';
import { exposureOf } from './exposure';
import { AddBatch, RefreshBatch, type BookBatch } from './jobs';
import { ProfileReadQueue } from './read-queue';
import { bringUpToDate } from './rows';
import { readBookSettings, saveBookSettings, staleBefore } from './settings';
import { withModels } from './models';
import { bookRowView, filterOf, orderOf } from './view';

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
  /** The profile's one request budget: the pace its jobs show. */
  budget: RequestBudget;
  /** Stops hearing the budget's pace. */
  unwatch: () => void;
}

/**
 * The book of each profile (docs/book.md): its rows and counts read from `book_rows`, kept up to
 * date from the marks the store's triggers leave; the reads of many strategies (a refresh, an
 * add) through one queue per profile, paced by the profile's request budget; tags, exposure and
 * settings. What moved is told through the announcer (announce.ts).
 */
export class Book {
  private readonly reads = new Map<string, ProfileReads>();
  private readonly announcer: BookAnnouncer;
  private closed = false;
  private stopAuto: (() => void) | undefined;

  constructor(private readonly deps: BookDeps) {
    this.announcer = new BookAnnouncer(
      {
        upToDate: (profileId) => this.upToDate(profileId),
        rowsOf: (profileId, ids) => this.rowsOf(profileId, ids),
        counts: (profileId) => this.counts(profileId),
        jobView: (profileId, job) => this.jobView(this.reads.get(profileId), job),
      },
      deps.emit,
      deps.onAnnounceFault,
    );
  }

  settings(): BookSettings {
    return readBookSettings(this.deps.store);
  }

  saveSettings(patch: Partial<BookSettings>): BookSettings {
    return saveBookSettings(this.deps.store, patch);
  }

  private staleBefore(): string {
    return staleBefore(this.settings(), this.deps.now());
  }

  /**
   * Brings the profile's rows up to date with what the cache holds now. The rows that changed
   * are announced with the next announcement, whatever read brought them up to date.
   */
  private upToDate(profileId: string): void {
    const changed = bringUpToDate(this.deps.store, this.deps.now(), profileId);
    if (changed.length > 0 && !this.closed) this.announcer.rowsMoved(profileId, changed);
  }

  /**
   * Something the rows derive from changed outside the book's reads (a version's status, the
   * journal): the rows it moved (those the store's triggers marked) are announced soon, with the
   * book's counts. Many changes in a burst make one announcement.
   */
  rowsMayHaveMoved(profileId: string): void {
    this.announcer.soon(profileId);
  }

  counts(profileId: string): BookCounts {
    this.upToDate(profileId);
    const { store } = this.deps;
    return {
      ...store.book.counts(profileId, this.staleBefore()),
      tags: store.book.tagCounts(profileId),
    };
  }

  summary(profileId: string): BookSummary {
    const reads = this.reads.get(profileId);
    return {
      counts: this.counts(profileId),
      refresh: reads?.refresh ? this.jobView(reads, reads.refresh) : null,
      add: reads?.add ? this.jobView(reads, reads.add) : null,
      settings: this.settings(),
    };
  }

  page(profileId: string, query: BookQuery, offset: number, limit: number): BookPage {
    this.upToDate(profileId);
    const filter = filterOf(profileId, query, this.staleBefore());
    const { store } = this.deps;
    return {
      total: store.book.count(filter),
      offset,
      rows: withModels(
        store,
        profileId,
        store.book.page(filter, orderOf(query), offset, limit).map(bookRowView),
      ),
    };
  }

  /** The rows of these strategies as the contract carries them (with their models). */
  private rowsOf(profileId: string, strategyIds: readonly string[]): BookRow[] {
    const { store } = this.deps;
    return withModels(
      store,
      profileId,
      store.book.rows(profileId, strategyIds, this.staleBefore()).map(bookRowView),
    );
  }

  /** The strategies a selection names, in the book's order (those the app holds). */
  selected(profileId: string, selection: BookSelection): string[] {
    this.upToDate(profileId);
    const base = filterOf(
      profileId,
      { search: '', flags: [], tag: null, sort: 'name', descending: false },
      this.staleBefore(),
    );
    const { store } = this.deps;
    switch (selection.kind) {
      case 'all':
        return store.book.ids(base);
      case 'ids':
        return store.book.ids({ ...base, strategyIds: selection.strategyIds });
      case 'tag':
        return store.book.ids({ ...base, tag: selection.tag });
      case 'query':
        return store.book.ids(
          filterOf(profileId, selection.query, base.staleBefore),
          orderOf(selection.query),
        );
    }
  }

  changeTags(
    profileId: string,
    selection: BookSelection,
    add: readonly string[],
    remove: readonly string[],
  ): { changed: number; counts: BookCounts } {
    const ids = this.selected(profileId, selection);
    const changed = this.deps.store.transaction(() =>
      this.deps.store.book.changeTags(profileId, ids, add, remove, this.deps.now()),
    );
    return { changed, counts: this.counts(profileId) };
  }

  exposure(profileId: string, symbol: string): ExposureView {
    this.upToDate(profileId);
    return exposureOf(this.deps.store, profileId, symbol, this.staleBefore());
  }

  /**
   * Reads the selected strategies again, in the book's order; joins a refresh under way with
   * those it lacks. Its progress and the rows it reads are announced as they move.
   */
  refresh(profileId: string, selection: BookSelection): BookJob {
    const ids = this.selected(profileId, selection);
    const reads = this.readsOf(profileId);
    if (!reads.refresh || reads.refresh.finished)
      reads.refresh = new RefreshBatch(this.deps.now, (job) => this.moved(profileId, job));
    const job = reads.refresh;
    reads.queue.add(job, job.take(ids));
    this.announcer.jobMoved(profileId, job, true);
    return this.jobView(reads, job);
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
    const job = new AddBatch(
      pasted,
      (id) => this.deps.store.strategies.nameOf(profileId, id),
      this.deps.now,
      (moved) => this.moved(profileId, moved),
    );
    reads.add = job;
    reads.queue.add(job, job.toRead);
    this.announcer.jobMoved(profileId, job, true);
    return this.jobView(reads, job);
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
      settings: () => this.settings(),
      refreshing: (profileId) => this.refreshing(profileId),
      dueBefore: (profileId, before) => {
        this.upToDate(profileId);
        return this.deps.store.book.ids({
          profileId,
          search: '',
          flags: ['stale'],
          tag: null,
          staleBefore: before,
        });
      },
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
    const { strategySync, connections } = this.deps;
    const budget = connections.budget(profileId);
    reads = {
      queue: new ProfileReadQueue(profileId, {
        fetch: (p, s, signal) => connections.inBulk(() => strategySync.fetch(p, s, signal)),
        store: (p, strategies) => this.storeAll(p, strategies),
        pauseAfter429: (p, error, refusals) => connections.pauseAfter429(p, error, refusals),
        concurrency: () => this.settings().refreshConcurrency,
        notRead: (p, s, reason) => this.notRead(p, s, reason),
      }),
      refresh: null,
      add: null,
      addReading: false,
      budget,
      // The budget's pace is what the running jobs show: told as it changes.
      unwatch: budget.onPaced(() => this.paced(profileId)),
    };
    this.reads.set(profileId, reads);
    return reads;
  }

  /**
   * A job as the screens show it, with the pace of the profile's one request budget (none left
   * once the profile's reads were forgotten).
   */
  private jobView(reads: ProfileReads | undefined, job: BookBatch): BookJob {
    const setting = this.settings().refreshConcurrency;
    return job.view({
      waitingUntil: reads?.budget.waitingUntil?.toISOString() ?? null,
      concurrency: Math.min(setting, reads?.budget.atOnce ?? setting),
    });
  }

  /**
   * Stores strategies read together; the rows that changed (those the triggers marked) are worked
   * out on the next turn of the event loop, once the answers that came meanwhile started their
   * next reads. Whatever reads the book brings it up to date first: no row is read stale.
   */
  private storeAll(profileId: string, strategies: readonly Strategy[]): Promise<void> | undefined {
    const durable = this.deps.strategySync.storeAll(profileId, strategies);
    setImmediate(() => {
      if (!this.closed) this.upToDate(profileId);
    });
    return durable;
  }

  /** A job moved: the rows it read are announced soon, its end at once. */
  private moved(profileId: string, job: BookBatch): void {
    if (this.closed || !this.reads.has(profileId)) return;
    const stored: string[] = [];
    for (const strategyId of job.touched) {
      // An added strategy is in no screen's rows yet: the counts announce it, not its row.
      if (job instanceof AddBatch) {
        const name = this.deps.store.strategies.nameOf(profileId, strategyId);
        if (name) job.named(strategyId, name);
        this.announcer.added(profileId);
      } else stored.push(strategyId);
    }
    job.touched.clear();
    if (stored.length > 0) this.announcer.rowsMoved(profileId, stored);
    // Its end is told at once (a cancel is told by whoever cancelled, once all is settled).
    this.announcer.jobMoved(profileId, job, job.state === 'finished');
  }

  /** The profile's pace changed: its running jobs show it. */
  private paced(profileId: string): void {
    const reads = this.reads.get(profileId);
    if (!reads || this.closed) return;
    for (const job of [reads.refresh, reads.add])
      if (job && !job.finished) this.announcer.jobMoved(profileId, job);
  }

  /** A strategy not read because the service stopped answering: its row says so. */
  private notRead(profileId: string, strategyId: string, reason: unknown): void {
    noteNotRead(this.deps, profileId, strategyId, reason);
    this.announcer.rowsMoved(profileId, [strategyId]);
  }
}
