import { readPastedIds, type PastedIds } from '../../../shared/book/paste';
import { runInSlices } from '../slices';
import type {
  BookCounts,
  BookJob,
  BookPage,
  BookQuery,
  BookSelection,
  BookSettings,
  BookSummary,
  ExposureView,
} from '../../../shared/book/views';
import type { DeskEvent } from '../../../shared/contract';
import type { Strategy } from '../../../shared/domain/resources';
import { DeskError, deskError } from '../../../shared/errors';
import { Throttle } from '../../../shared/throttle';
import type { WaitInfo } from '../api';
import type { Store } from '../store';
import { noteNotRead } from '../strategies/sync';
import { exposureOf } from './exposure';
import { AddBatch, RefreshBatch, type BookBatch } from './jobs';
import { ProfileReadQueue, type ReadQueueDeps } from './read-queue';
import { bringUpToDate } from './rows';
import { readBookSettings, saveBookSettings, staleBefore } from './settings';
import { withModels } from './models';
import { bookRowView, filterOf, orderOf } from './view';

export { DEFAULT_BOOK_SETTINGS, readBookSettings } from './settings';
export { BOOK_CSV, HOLDINGS_CSV, type BookCsv } from './export';

/** How often progress and the rows it changed are announced while reads go on. */
const ANNOUNCE_EVERY_MS = 150;

export interface BookDeps {
  store: Store;
  /** Reads a strategy from the service (StrategySync.fetch). */
  fetch(profileId: string, strategyId: string, signal: AbortSignal): Promise<Strategy>;
  /** Stores strategies read together (StrategySync.storeAll); new ones: resolves once on disk. */
  storeAll(profileId: string, strategies: readonly Strategy[]): Promise<void> | undefined;
  watchWaits(profileId: string, watch: (info: WaitInfo) => void): () => void;
  /** The profile's retry policy for a 429 (Connections.rateLimitedWait). */
  rateLimitedWait: ReadQueueDeps<Strategy>['rateLimitedWait'];
  emit(event: DeskEvent): void;
  now(): string;
  /** Where an announcement that could not be made is told (the desk's log). */
  onAnnounceFault?(profileId: string, error: unknown): void;
}

interface ProfileBook {
  queue: ProfileReadQueue<Strategy>;
  refresh: RefreshBatch | null;
  add: AddBatch | null;
  /** A paste is being read for an add (in slices): another add waits its end. */
  addReading: boolean;
  announce: Throttle;
  /** Strategies stored since the last announcement. */
  stored: Set<string>;
  /** Strategies were added since the last announcement. */
  added: boolean;
  jobsChanged: Set<BookBatch>;
}

/**
 * The book of each profile (docs/book.md): its rows and counts read from `book_rows`, kept up to
 * date from the marks the store's triggers leave; the reads of many strategies through one
 * bounded queue per profile; tags, exposure and settings.
 */
export class Book {
  private readonly books = new Map<string, ProfileBook>();
  /** Cancelled batches whose committed strategies wait for the disk: their end is told after. */
  private readonly settling = new Set<BookBatch>();
  private closed = false;
  private autoTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: BookDeps) {}

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
    const book = this.books.get(profileId);
    if (!book || changed.length === 0) return;
    for (const strategyId of changed) book.stored.add(strategyId);
    book.announce.soon();
  }

  /**
   * Something the rows derive from changed outside the book's reads (a version's status, the
   * journal): the rows it moved (those the store's triggers marked) are announced soon, with the
   * book's counts. Many changes in a burst make one announcement.
   */
  rowsMayHaveMoved(profileId: string): void {
    if (this.closed) return;
    this.bookOf(profileId).announce.soon();
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
    const book = this.books.get(profileId);
    return {
      counts: this.counts(profileId),
      refresh: book?.refresh ? this.jobView(book, book.refresh) : null,
      add: book?.add ? this.jobView(book, book.add) : null,
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

  /** Reads the selected strategies again; joins a refresh under way with those it lacks. */
  refresh(profileId: string, selection: BookSelection): BookJob {
    const ids = this.selected(profileId, selection);
    const book = this.bookOf(profileId);
    if (!book.refresh || book.refresh.finished)
      book.refresh = new RefreshBatch(this.deps.now, (job) => this.changed(profileId, job));
    const batch = book.refresh;
    const taken = batch.take(ids);
    batch.finishIfEmpty();
    book.queue.add(batch, taken);
    book.jobsChanged.add(batch);
    this.announceNow(profileId);
    return this.jobView(book, batch);
  }

  cancelRefresh(profileId: string): Promise<void> {
    return this.cancel(profileId, (book) => book.refresh);
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
    const book = this.bookOf(profileId);
    if (book.addReading || (book.add && !book.add.finished)) throw deskError('busy');
    book.addReading = true;
    let pasted: PastedIds;
    try {
      pasted = await runInSlices(readPastedIds(text));
    } finally {
      book.addReading = false;
    }
    if (this.closed || this.books.get(profileId) !== book)
      throw new DeskError({
        kind: 'not-found',
        message:
          'The profile was removed, or its address changed, while the list was read: nothing was added.',
      });
    const batch = new AddBatch(
      pasted,
      (id) => this.deps.store.strategies.nameOf(profileId, id),
      this.deps.now,
      (job) => this.changed(profileId, job),
    );
    book.add = batch;
    book.queue.add(batch, batch.toRead);
    book.jobsChanged.add(batch);
    this.announceNow(profileId);
    return this.jobView(book, batch);
  }

  cancelAdd(profileId: string): Promise<void> {
    return this.cancel(profileId, (book) => book.add);
  }

  /** Cancels a batch; its end is announced (and this resolves) once what it stored is on disk. */
  private async cancel(profileId: string, of: (book: ProfileBook) => BookBatch | null) {
    const book = this.books.get(profileId);
    const batch = book && of(book);
    if (!book || !batch || batch.finished) return;
    batch.cancel();
    this.settling.add(batch);
    await book.queue.cancel(batch); // never fails: each strategy settles, stored or failed
    this.settling.delete(batch);
    book.jobsChanged.add(batch);
    this.announceNow(profileId);
  }

  /** The last add's lines, a window at a time. */
  addOutcomes(profileId: string, jobId: string) {
    const add = this.books.get(profileId)?.add;
    if (!add || add.id !== jobId) throw deskError('not-found');
    return add.lines;
  }

  /** Forgets the profile's queue (the profile was removed, or its address changed). */
  forget(profileId: string): void {
    const book = this.books.get(profileId);
    if (!book) return;
    book.announce.cancel();
    book.queue.close();
    this.books.delete(profileId);
  }

  /** Whether a refresh of the profile is under way. */
  refreshing(profileId: string): boolean {
    const refresh = this.books.get(profileId)?.refresh;
    return refresh !== null && refresh !== undefined && !refresh.finished;
  }

  /**
   * The optional automatic refresh (off by default): every `minuteMs` it looks for each profile
   * online, with no refresh under way, whose strategies were last read longer ago than the
   * setting's interval, and refreshes those.
   */
  startAutoRefresh(auto: {
    profiles(): string[];
    isOnline(profileId: string): boolean;
    minuteMs?: number;
  }): void {
    const minuteMs = auto.minuteMs ?? 60_000;
    clearInterval(this.autoTimer);
    this.autoTimer = setInterval(() => {
      const minutes = this.settings().autoRefreshMinutes;
      if (minutes === null || this.closed) return;
      for (const profileId of auto.profiles()) {
        if (!auto.isOnline(profileId) || this.refreshing(profileId)) continue;
        this.upToDate(profileId);
        const due = this.deps.store.book.ids({
          profileId,
          search: '',
          flags: ['stale'],
          tag: null,
          staleBefore: new Date(Date.parse(this.deps.now()) - minutes * minuteMs).toISOString(),
        });
        if (due.length > 0) this.refresh(profileId, { kind: 'ids', strategyIds: due });
      }
    }, minuteMs);
    this.autoTimer.unref?.();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.autoTimer);
    for (const profileId of [...this.books.keys()]) this.forget(profileId);
  }

  private bookOf(profileId: string): ProfileBook {
    let book = this.books.get(profileId);
    if (book) return book;
    book = {
      queue: new ProfileReadQueue(profileId, {
        fetch: (p, s, signal) => this.deps.fetch(p, s, signal),
        store: (p, strategies) => this.storeAll(p, strategies),
        watchWaits: this.deps.watchWaits,
        rateLimitedWait: this.deps.rateLimitedWait,
        concurrency: () => this.settings().refreshConcurrency,
        paced: (p) => this.paced(p),
        notRead: (p, s, reason) => this.notRead(p, s, reason),
      }),
      refresh: null,
      add: null,
      addReading: false,
      announce: new Throttle(ANNOUNCE_EVERY_MS, () => this.announceFromTimer(profileId)),
      stored: new Set(),
      added: false,
      jobsChanged: new Set(),
    };
    this.books.set(profileId, book);
    return book;
  }

  private jobView(book: ProfileBook, job: BookBatch): BookJob {
    return job.view({
      waitingUntil: book.queue.waitingUntil?.toISOString() ?? null,
      concurrency: book.queue.concurrency,
    });
  }

  /**
   * Stores strategies read together; the rows that changed (those the triggers marked) are worked
   * out on the next turn of the event loop, once the answers that came meanwhile started their
   * next reads. Whatever reads the book brings it up to date first: no row is read stale.
   */
  private storeAll(profileId: string, strategies: readonly Strategy[]): Promise<void> | undefined {
    const durable = this.deps.storeAll(profileId, strategies);
    setImmediate(() => {
      if (!this.closed) this.upToDate(profileId);
    });
    return durable;
  }

  /** A batch changed: the rows it read are announced soon. */
  private changed(profileId: string, job: BookBatch): void {
    const book = this.books.get(profileId);
    if (!book || this.closed) return;
    for (const strategyId of job.touched) {
      // An added strategy is in no screen's rows yet: the counts announce it, not its row.
      if (job instanceof AddBatch) {
        const name = this.deps.store.strategies.nameOf(profileId, strategyId);
        if (name) job.named(strategyId, name);
        book.added = true;
      } else book.stored.add(strategyId);
    }
    job.touched.clear();
    book.jobsChanged.add(job);
    // Its end is told at once (a cancel is told by whoever cancelled, once all is settled).
    if (job.state === 'finished') this.announceNow(profileId);
    else this.announceSoon(profileId);
  }

  private paced(profileId: string): void {
    const book = this.books.get(profileId);
    if (!book) return;
    if (book.refresh && !book.refresh.finished) book.jobsChanged.add(book.refresh);
    if (book.add && !book.add.finished) book.jobsChanged.add(book.add);
    this.announceSoon(profileId);
  }

  /** A strategy not read because the service stopped answering: its row says so. */
  private notRead(profileId: string, strategyId: string, reason: unknown): void {
    noteNotRead(this.deps, profileId, strategyId, reason);
    this.bookOf(profileId).stored.add(strategyId);
  }

  private announceSoon(profileId: string): void {
    this.books.get(profileId)?.announce.soon();
  }

  /**
   * The throttle's run, on a timer: a store that cannot be written now (another process's long
   * write, a fault) leaves the rows marked for the next announcement, never an exception out of
   * a timer, which would end the app.
   */
  private announceFromTimer(profileId: string): void {
    try {
      this.announceNow(profileId);
    } catch (error) {
      this.deps.onAnnounceFault?.(profileId, error);
    }
  }

  /** Announces the batches that changed and the rows they stored, with the book's counts. */
  private announceNow(profileId: string): void {
    const book = this.books.get(profileId);
    if (!book || this.closed) return;
    // The rows the store marked join those stored (upToDate adds them).
    this.upToDate(profileId);
    book.announce.cancel();
    const jobs = [...book.jobsChanged];
    book.jobsChanged.clear();
    const stored = [...book.stored];
    book.stored.clear();
    if (stored.length > 0 || book.added) {
      book.added = false;
      const { store } = this.deps;
      const rows = withModels(
        store,
        profileId,
        store.book.rows(profileId, stored, this.staleBefore()).map(bookRowView),
      );
      this.deps.emit({
        type: 'book-rows-changed',
        profileId,
        rows,
        counts: this.counts(profileId),
      });
    }
    for (const job of jobs)
      if (!this.settling.has(job))
        this.deps.emit({ type: 'book-job-changed', profileId, job: this.jobView(book, job) });
  }
}
