import { outsideActivityFilter } from '../../../shared/activity/filter';
import type { ActivityEntrySummary, ActivityFilter } from '../../../shared/activity/views';

/** Entries asked for at a time: a screenful or two, well under the contract's 500. */
export const PAGE_SIZE = 100;
/** How often a page that came back short (the log grew meanwhile) is asked for again. */
const MAX_TRIES = 3;

/** Whether an entry heard live belongs in a view of this filter (the list's own rules). */
export function matchesFilter(entry: ActivityEntrySummary, filter: ActivityFilter): boolean {
  return outsideActivityFilter(entry, filter) === null;
}

/** A page of a log as the app answers it: the filter's total then, and entries newest first. */
export interface LogPage<Entry> {
  total: number;
  entries: readonly Entry[];
}

export interface PageRequest {
  page: number;
  offset: number;
  limit: number;
}

/**
 * The rows of one filtered view of the log, read a page at a time as they scroll into view.
 *
 * The log only grows, and only at the top (newest first), so an entry's place counted from the
 * bottom never changes. The first answer fixes a snapshot: its total, and the newest entry then.
 * Each later answer carries the total at the time it was read; the difference says how many newer
 * entries pushed it down, so every row lands at its exact place even while entries arrive. The
 * newer entries themselves (heard live, or met in an answer) are kept apart at the top.
 *
 * The desk's log and the team's (ordered by seq, each its own chain) are read the same way;
 * `matches` says whether an entry heard live belongs to the filter; a window without one takes
 * nothing heard (the team's: its newer entries come from reading the top again, `top`).
 */
export class EntryWindow<
  Entry extends { seq: number } = ActivityEntrySummary,
  Filter = ActivityFilter,
> {
  private snapshotTotal: number | null = null;
  /** The newest entry of the snapshot (0 when it was empty): newer ones are live. */
  private topSeq = 0;
  /** Snapshot rows by their place in it (0 = newest then). */
  private readonly rows = new Map<number, Entry>();
  /** Entries newer than the snapshot, newest first. */
  private live: Entry[] = [];
  private readonly pending = new Set<number>();
  private readonly tries = new Map<number, number>();
  /** The latest known count of entries newer than the snapshot, from the answers. */
  private newerSeen = 0;

  constructor(
    readonly filter: Filter,
    private readonly matches?: (entry: Entry, filter: Filter) => boolean,
  ) {}

  /** Rows in the view, or null before the first answer. */
  get total(): number | null {
    return this.snapshotTotal === null ? null : this.snapshotTotal + this.live.length;
  }

  get loaded(): boolean {
    return this.snapshotTotal !== null;
  }

  /** The row at a place in the view (0 = newest), when it has been read. */
  at(index: number): Entry | undefined {
    if (index < this.live.length) return this.live[index];
    return this.rows.get(index - this.live.length);
  }

  /** The pages to ask for so that rows [start, end) of the view are in hand. */
  missing(start: number, end: number): PageRequest[] {
    if (this.snapshotTotal === null) {
      if (this.pending.has(0)) return [];
      return [{ page: 0, offset: 0, limit: PAGE_SIZE }];
    }
    const from = Math.max(0, start - this.live.length);
    const to = Math.min(this.snapshotTotal, end - this.live.length);
    const requests: PageRequest[] = [];
    for (let page = Math.floor(from / PAGE_SIZE); page * PAGE_SIZE < to; page++) {
      if (this.pending.has(page) || (this.tries.get(page) ?? 0) >= MAX_TRIES) continue;
      const first = page * PAGE_SIZE;
      const last = Math.min(this.snapshotTotal, first + PAGE_SIZE);
      let complete = true;
      for (let i = first; i < last && complete; i++) complete = this.rows.has(i);
      if (complete) continue;
      // Newer entries push every row down: ask where the page is now, as far as known.
      const shift = Math.max(this.newerSeen, this.live.length);
      requests.push({ page, offset: first + shift, limit: PAGE_SIZE });
    }
    return requests;
  }

  /**
   * The newest page read again: entries written since the snapshot land at the top (`received`).
   * Its page number is none of the snapshot's, so it never stands in for one.
   */
  top(): PageRequest {
    return { page: -1, offset: 0, limit: PAGE_SIZE };
  }

  /** A request is on its way: not asked for twice meanwhile. */
  asked(request: PageRequest): void {
    this.pending.add(request.page);
    this.tries.set(request.page, (this.tries.get(request.page) ?? 0) + 1);
  }

  failed(request: PageRequest): void {
    this.pending.delete(request.page);
  }

  /** Takes an answer in; each of its rows goes to its place by the total it was read with. */
  received(request: PageRequest, answer: LogPage<Entry>): void {
    this.pending.delete(request.page);
    if (this.snapshotTotal === null) {
      this.snapshotTotal = answer.total;
      this.topSeq = request.offset === 0 ? (answer.entries[0]?.seq ?? 0) : 0;
      this.live = this.live.filter((e) => e.seq > this.topSeq);
    }
    const newer = answer.total - this.snapshotTotal;
    this.newerSeen = Math.max(this.newerSeen, newer);
    answer.entries.forEach((entry, i) => {
      const place = request.offset + i - newer;
      if (place >= 0 && place < this.snapshotTotal!) this.rows.set(place, entry);
      else if (place < 0) this.addLive(entry);
    });
  }

  /** An entry appended since: true when it joins this view. */
  heard(entry: Entry): boolean {
    if (!this.matches?.(entry, this.filter)) return false;
    if (this.snapshotTotal !== null && entry.seq <= this.topSeq) return false;
    return this.addLive(entry);
  }

  /** A row read again (its outcome is known now): true when it is in hand and was replaced. */
  replace(entry: Entry): boolean {
    const live = this.live.findIndex((e) => e.seq === entry.seq);
    if (live >= 0) {
      this.live = this.live.map((e, i) => (i === live ? entry : e));
      return true;
    }
    for (const [place, e] of this.rows)
      if (e.seq === entry.seq) {
        this.rows.set(place, entry);
        return true;
      }
    return false;
  }

  private addLive(entry: Entry): boolean {
    if (this.live.some((e) => e.seq === entry.seq)) return false;
    this.live = [...this.live, entry].sort((a, b) => b.seq - a.seq);
    return true;
  }
}
