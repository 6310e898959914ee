import type {
  AddOutcomeLine,
  BookCounts,
  BookJob,
  BookPage,
  BookSummary,
  BookQuery,
  BookRow,
  BookSettings,
  ExposureView,
  SelectionModels,
} from '../../../shared/book/views';
import type { BookFlag, BookSort } from '../../../shared/book/flags';
import { BOOK_PAGE } from '../../../shared/book/first-page';
import type { DeskApi, DeskEventOf } from '../../../shared/contract';
import type { DeskError } from '../../../shared/views';
import { afterPaint } from '../lib/after-paint';
import { asDeskError } from '../lib/errors';
import { Listeners } from '../../../shared/listeners';
import { Throttle } from '../../../shared/throttle';
import { ExportRun } from '../lib/stores/export-run.svelte';
import type { ModelMoves } from '../models/models.svelte';
import { BookChoice } from './book-choice.svelte';
import { BookRows, laterJob } from './book-rows';

/** Rows asked for at a time: a screenful or two, well under the contract's 500. */
const PAGE = BOOK_PAGE;
/** A change heard while reads go on re-reads the rows in view at most this often. */
const REREAD_MS = 300;
const SCROLL_SETTLE_MS = 40;

export type BookExportKind = 'strategies' | 'holdings';

/**
 * A profile's book as the screen holds it: the query, the rows read so far (a page at a time, as
 * they come into view), the whole book's counts, the reads under way (refresh, add), the chosen
 * rows (book-choice.svelte.ts), and the symbol whose exposure is open. The session routes the
 * desk's events here; the rows an event carries (`book-rows-changed`: a refresh's, a
 * rebalance's, the journal's) replace those in hand with the counts it carries; the rows in view
 * are read again, at most every REREAD_MS, only when the event may have moved rows across them (a
 * strategy's place in this order, or the filter). No event makes it read the summary again.
 */
export class BookStore {
  search = $state('');
  flags = $state<BookFlag[]>([]);
  tag = $state<string | null>(null);
  sort = $state<BookSort>('name');
  descending = $state(false);

  total = $state<number | null>(null);
  counts = $state.raw<BookCounts | null>(null);
  refresh = $state.raw<BookJob | null>(null);
  add = $state.raw<BookJob | null>(null);
  settings = $state.raw<BookSettings | null>(null);
  failure = $state<DeskError | null>(null);
  /** Bumped when rows arrive, so whoever reads them reads again. */
  revision = $state(0);

  /** The rows chosen, what the book's actions act on. */
  readonly choice = new BookChoice(
    () => this.query,
    () => this.total,
  );

  exposure = $state.raw<ExposureView | null>(null);
  exposureFailure = $state<DeskError | null>(null);
  /** The book's two exports, each followed on its own (both may run at once). */
  readonly exports: Readonly<Record<BookExportKind, ExportRun>>;

  /** The book is on screen: only then does a change heard make it read again. */
  private shownOnScreen = false;
  private rows = new BookRows();
  private generation = 0;
  private shown = { start: 0, end: 0 };
  private settle: ReturnType<typeof setTimeout> | undefined;
  private readonly reread = new Throttle(REREAD_MS, () => this.fetch(true));
  private readonly listeners = new Listeners<BookJob>();

  constructor(
    private readonly desk: DeskApi,
    readonly profileId: string,
    /** The session's `export-progress` events. */
    progress: Listeners<DeskEventOf<'export-progress'>>,
  ) {
    this.exports = { strategies: new ExportRun(progress), holdings: new ExportRun(progress) };
  }

  get query(): BookQuery {
    return {
      search: this.search.trim(),
      flags: [...this.flags],
      tag: this.tag,
      sort: this.sort,
      descending: this.descending,
    };
  }

  /** The first read, made before the screen's code arrived (see useFirstRead). */
  private early: Promise<void> | null = null;

  /**
   * Takes the summary and the first rows of the whole book, asked for by the session as the
   * profile opened (its first screen), while this code was still on its way. `drawn`: told once
   * they are on screen (or could not be read).
   */
  useFirstRead(
    first: { summary: Promise<BookSummary>; page: Promise<BookPage> },
    drawn: () => void = () => undefined,
  ): void {
    const generation = this.generation;
    // Its first page is on its way: the table, drawn meanwhile, does not ask for it again.
    const rows = this.rows;
    rows.asked(0);
    this.early = Promise.all([first.summary, first.page]).then(
      ([summary, page]) => {
        rows.answered(0);
        this.counts = summary.counts;
        this.refresh = summary.refresh;
        this.add = summary.add;
        this.settings = summary.settings;
        if (generation === this.generation) {
          this.total = page.total;
          this.rows.received(page.offset, page.rows, page.total);
          this.revision++;
        }
        void afterPaint().then(drawn);
      },
      () => {
        drawn();
        rows.answered(0);
        // Read again the usual way.
        this.early = null;
        this.apply();
        void this.readSummary();
      },
    );
  }

  /** Reads the summary and the first rows: the screen opened. */
  async open(): Promise<void> {
    this.shownOnScreen = true;
    const early = this.early;
    this.early = null;
    if (early) return early;
    this.apply();
    await this.readSummary();
  }

  /** The screen went away (a strategy opened): changes heard meanwhile cost no read. */
  close(): void {
    this.shownOnScreen = false;
    this.reread.cancel();
  }

  /** Reads the rows again from the top with the query as it stands now. */
  apply(): void {
    this.generation++;
    this.rows = new BookRows();
    this.total = null;
    this.failure = null;
    this.revision++;
    this.fetch();
  }

  rowAt(index: number): BookRow | undefined {
    void this.revision;
    return this.rows.at(index);
  }

  /** The table shows rows [start, end): read what is not in hand once the scrolling pauses. */
  show(start: number, end: number): void {
    this.shown = { start, end };
    clearTimeout(this.settle);
    this.settle = setTimeout(() => this.fetch(), SCROLL_SETTLE_MS);
  }

  private fetch(force = false): void {
    const end = this.total === null ? Math.max(this.shown.end, 1) : this.shown.end;
    const first = Math.floor(this.shown.start / PAGE);
    for (let page = first; page * PAGE < Math.max(end, 1); page++) {
      if (this.rows.isAsked(page)) continue;
      if (!force && this.total !== null && this.pageInHand(page)) continue;
      void this.readPage(page);
    }
  }

  private pageInHand(page: number): boolean {
    return this.rows.hasPage(page, PAGE, this.total ?? 0);
  }

  private async readPage(page: number): Promise<void> {
    const generation = this.generation;
    const rows = this.rows;
    rows.asked(page);
    try {
      const answer = await this.desk.book.rows({
        profileId: this.profileId,
        query: this.query,
        offset: page * PAGE,
        limit: PAGE,
      });
      if (generation !== this.generation) return;
      this.total = answer.total;
      rows.received(answer.offset, answer.rows, answer.total);
      this.failure = null;
      this.revision++;
    } catch (error) {
      if (generation === this.generation) this.failure = asDeskError(error);
    } finally {
      rows.answered(page);
    }
  }

  async readSummary(): Promise<void> {
    try {
      const summary = await this.desk.book.summary({ profileId: this.profileId });
      this.counts = summary.counts;
      this.refresh = summary.refresh;
      this.add = summary.add;
      this.settings = summary.settings;
    } catch (error) {
      this.failure = asDeskError(error);
    }
  }

  /**
   * Rows the desk worked out again (`book-rows-changed`), with the book's counts now: they replace
   * those in hand where they are. The rows in view are read again only when the event may have
   * moved rows across them (see `mayMoveRows`).
   */
  applyRows(event: DeskEventOf<'book-rows-changed'>): void {
    const before = this.counts;
    this.counts = event.counts;
    if (this.rows.replace(event.rows)) this.revision++;
    if (mayMoveRows(this.query, before, event)) this.rereadSoon();
  }

  /** Strategies whose model or sync state changed: their model column in hand, no read. */
  applyModels(strategies: ModelMoves): void {
    if (this.rows.patchModels(this.profileId, strategies)) this.revision++;
  }

  applyJob(job: BookJob): void {
    if (job.kind === 'refresh') this.refresh = laterJob(this.refresh, job);
    else this.add = laterJob(this.add, job);
    this.listeners.emit(job);
  }

  /** Hears every change of a refresh or an add (the Add many panel follows its outcomes). */
  onJob(listener: (job: BookJob) => void): () => void {
    return this.listeners.add(listener);
  }

  private rereadSoon(): void {
    if (this.shownOnScreen) this.reread.soon();
  }

  stop(): void {
    clearTimeout(this.settle);
    this.reread.cancel();
    this.listeners.clear();
  }

  setFlags(flags: BookFlag[]): void {
    this.flags = flags;
    this.apply();
  }

  setTag(tag: string | null): void {
    this.tag = tag;
    this.apply();
  }

  setSort(sort: BookSort, descending: boolean): void {
    this.sort = sort;
    this.descending = descending;
    this.apply();
  }

  async startRefresh(): Promise<void> {
    const job = await this.desk.book.refresh({
      profileId: this.profileId,
      selection: this.choice.selection,
    });
    this.refresh = laterJob(this.refresh, job);
  }

  async cancelRefresh(): Promise<void> {
    await this.desk.book.cancelRefresh({ profileId: this.profileId });
  }

  async startAdd(text: string): Promise<BookJob> {
    const job = await this.desk.book.addMany({ profileId: this.profileId, text });
    this.add = laterJob(this.add, job);
    return this.add;
  }

  async cancelAdd(): Promise<void> {
    await this.desk.book.cancelAdd({ profileId: this.profileId });
  }

  async outcomes(jobId: string, offset: number, limit: number): Promise<AddOutcomeLine[]> {
    const answer = await this.desk.book.addOutcomes({
      profileId: this.profileId,
      jobId,
      offset,
      limit,
    });
    return answer.lines;
  }

  async outcomesText(jobId: string): Promise<string> {
    return (await this.desk.book.copyOutcomes({ profileId: this.profileId, jobId })).text;
  }

  /** The models the chosen strategies follow, by revision (what "Review with its model…" opens). */
  selectionModels(): Promise<SelectionModels> {
    return this.desk.book.selectionModels({
      profileId: this.profileId,
      selection: this.choice.selection,
    });
  }

  async changeTags(add: string[], remove: string[]): Promise<number> {
    const answer = await this.desk.book.changeTags({
      profileId: this.profileId,
      selection: this.choice.selection,
      add,
      remove,
    });
    this.counts = answer.counts;
    this.apply();
    return answer.changed;
  }

  async openExposure(symbol: string): Promise<void> {
    this.exposureFailure = null;
    try {
      this.exposure = await this.desk.book.exposure({ profileId: this.profileId, symbol });
    } catch (error) {
      this.exposure = null;
      this.exposureFailure = asDeskError(error);
    }
  }

  closeExposure(): void {
    this.exposure = null;
    this.exposureFailure = null;
  }

  async export(kind: BookExportKind): Promise<void> {
    const input = { profileId: this.profileId, query: this.query };
    await this.exports[kind].start((exportId) =>
      kind === 'strategies'
        ? this.desk.book.exportStrategies({ ...input, exportId })
        : this.desk.book.exportHoldings({ ...input, exportId }),
    );
  }

  async saveSettings(patch: Partial<BookSettings>): Promise<void> {
    this.settings = await this.desk.book.saveSettings(patch);
    this.apply();
    await this.readSummary();
  }
}

/**
 * Whether rows an event carries may have moved across the rows in view, so that those are read
 * again: under a filter (a row may have entered or left it), when the book's strategies were added
 * or removed, or when the desk says a row may have changed place in this order. Otherwise each
 * carried row kept its place and replaced the one in hand.
 */
function mayMoveRows(
  query: BookQuery,
  before: BookCounts | null,
  event: DeskEventOf<'book-rows-changed'>,
): boolean {
  if (query.search !== '' || query.flags.length > 0 || query.tag !== null) return true;
  if (before === null || before.strategies !== event.counts.strategies) return true;
  return event.placesMoved.includes(query.sort);
}
