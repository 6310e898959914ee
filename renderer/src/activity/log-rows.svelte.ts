import type { DeskError } from '../../../shared/views';
import { asDeskError } from '../lib/errors';
import { EntryWindow, PAGE_SIZE, type LogPage, type PageRequest } from './entry-window';

const SCROLL_SETTLE_MS = 40;

/** One page of a log asked of the desk: the view's filter, where, and how many. */
export type ReadLogPage<Entry, Filter> = (
  request: Filter & { offset: number; limit: number },
) => Promise<LogPage<Entry>>;

/**
 * A log's rows as a view shows them (the desk's log and the team's): read a page at a time as
 * they scroll into view (entry-window.ts places each), once the scrolling pauses; a new filter
 * starts again from the top, and an answer to an earlier filter is dropped. A failed read says
 * why in `failure`; the rows read stay.
 */
export class LogRows<Entry extends { seq: number }, Filter> {
  total = $state<number | null>(null);
  failure = $state<DeskError | null>(null);
  /** Bumped when rows arrive, so whoever reads them reads again. */
  revision = $state(0);

  private rows: EntryWindow<Entry, Filter> | null = null;
  private shown = { start: 0, end: 0 };
  private settle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly readPage: ReadLogPage<Entry, Filter>,
    /** Whether an entry heard live belongs to a filter (none: the log takes nothing heard). */
    private readonly matches?: (entry: Entry, filter: Filter) => boolean,
  ) {}

  /** The rows of `filter`, read again from the top. */
  open(filter: Filter): void {
    this.failure = null;
    this.rows = new EntryWindow<Entry, Filter>(filter, this.matches);
    this.sync();
    this.fetch();
  }

  /** The filter the rows are read with, or null before the first `open`. */
  get filter(): Filter | null {
    return this.rows?.filter ?? null;
  }

  /**
   * The table shows rows [start, end): read whatever of them is not in hand yet, once the
   * scrolling pauses (a drag across 100,000 rows asks only for where it stops).
   */
  show(start: number, end: number): void {
    this.shown = { start, end };
    clearTimeout(this.settle);
    this.settle = setTimeout(() => this.fetch(), SCROLL_SETTLE_MS);
  }

  /** The row at a place in the view (0 = newest), once read. */
  rowAt(index: number): Entry | undefined {
    void this.revision;
    return this.rows?.at(index);
  }

  /** An entry appended since, heard live: it joins the top when the filter takes it. */
  heard(entry: Entry): void {
    if (this.rows?.heard(entry)) this.sync();
  }

  /** A row read again (its outcome settled): shown anew where it is in hand. */
  replace(entry: Entry, filter: Filter): void {
    if (this.rows?.filter === filter && this.rows.replace(entry)) this.sync();
  }

  /** The newest page read again: what was written since joins at the top. */
  readTop(): void {
    const rows = this.rows;
    if (rows?.loaded) void this.read(rows, rows.top());
  }

  stop(): void {
    clearTimeout(this.settle);
    this.rows = null;
  }

  private fetch(): void {
    const rows = this.rows;
    if (!rows) return;
    // Until the first answer the window's size is not known: a page covers the first screen.
    const end = rows.loaded ? this.shown.end : Math.max(this.shown.end, 1);
    for (const request of rows.missing(this.shown.start, end)) void this.read(rows, request);
  }

  private async read(rows: EntryWindow<Entry, Filter>, request: PageRequest): Promise<void> {
    rows.asked(request);
    try {
      const page = await this.readPage({
        ...rows.filter,
        offset: request.offset,
        limit: request.limit,
      });
      // A filter changed meanwhile: this answer belongs to rows no longer shown.
      if (rows !== this.rows) return;
      // More written since than the newest page holds: the ones between would be missing.
      if (request.page === -1 && page.total - (rows.total ?? 0) >= PAGE_SIZE) {
        this.open(rows.filter);
        return;
      }
      rows.received(request, page);
      this.sync();
      this.fetch();
    } catch (error) {
      rows.failed(request);
      if (rows === this.rows) this.failure = asDeskError(error);
    }
  }

  private sync(): void {
    this.total = this.rows?.total ?? null;
    this.revision++;
  }
}
