import { activityKindsFor, type ActivityKind } from '../../../shared/activity/kinds';
import type {
  ActivityEntryDetail,
  ActivityEntrySummary,
  ActivityFilter,
} from '../../../shared/activity/views';
import type { DeskApi, DeskEventOf } from '../../../shared/contract';
import type { DeskError } from '../../../shared/views';
import { asDeskError } from '../lib/errors';
import type { Listeners } from '../../../shared/listeners';
import { EntryWindow, matchesFilter, type PageRequest } from './entry-window';
import { readFilter, type FilterProblem } from './filter';

/** Kinds that settle what an earlier entry's outcome says (an answer, a retry, an end). */
const FOLLOW_UPS: readonly string[] = [
  'execution-answered',
  'execution-retried',
  'execution-dismissed',
  'version-ended',
];

const SCROLL_SETTLE_MS = 40;

/**
 * The Activity view's state: the filter, the rows read so far (a page at a time, as they come
 * into view), entries heard live, and the entry opened in detail.
 */
export class ActivityStore {
  /** The kinds this view can hold (a strategy's log has no profile entries). */
  readonly available: readonly ActivityKind[];
  kinds = $state<ActivityKind[]>([]);
  /** Inclusive UTC days, `YYYY-MM-DD`, or empty for no bound. */
  from = $state('');
  to = $state('');
  problem = $state<FilterProblem | null>(null);
  /** The filter the rows were read with (the export uses the same). */
  filter = $state.raw<ActivityFilter | null>(null);
  total = $state<number | null>(null);
  failure = $state<DeskError | null>(null);
  /** Bumped when rows arrive, so whoever reads them reads again. */
  revision = $state(0);

  openSeq = $state<number | null>(null);
  detail = $state.raw<ActivityEntryDetail | null>(null);
  detailFailure = $state<DeskError | null>(null);

  private rows: EntryWindow | null = null;
  private shown = { start: 0, end: 0 };
  private settle: ReturnType<typeof setTimeout> | undefined;
  private leave: (() => void) | undefined;

  constructor(
    private readonly desk: DeskApi,
    /** The session's router tells it each `activity-appended` event. */
    private readonly appended: Listeners<DeskEventOf<'activity-appended'>>,
    readonly profileId: string,
    readonly strategyId?: string,
  ) {
    this.available = activityKindsFor(strategyId);
    this.kinds = [...this.available];
  }

  start(): void {
    this.leave = this.appended.add((event) => {
      if (event.profileId !== this.profileId) return;
      if (this.rows?.heard(event.entry)) this.sync();
      if (FOLLOW_UPS.includes(event.entry.kind)) void this.reread(event.entry.seq);
    });
    this.apply();
  }

  stop(): void {
    clearTimeout(this.settle);
    this.leave?.();
    this.rows = null;
  }

  /** Reads the view again from the top with the filter as it stands now. */
  apply(): void {
    const read = readFilter({
      profileId: this.profileId,
      strategyId: this.strategyId,
      kinds: this.kinds,
      from: this.from,
      to: this.to,
    });
    if (!read.ok) {
      this.problem = read.problem;
      return;
    }
    this.problem = null;
    this.failure = null;
    this.filter = read.filter;
    this.rows = new EntryWindow(read.filter, matchesFilter);
    this.sync();
    this.fetch();
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
  rowAt(index: number): ActivityEntrySummary | undefined {
    void this.revision;
    return this.rows?.at(index);
  }

  private fetch(): void {
    const rows = this.rows;
    if (!rows) return;
    // Until the first answer the window's size is not known: a page covers the first screen.
    const end = rows.loaded ? this.shown.end : Math.max(this.shown.end, 1);
    for (const request of rows.missing(this.shown.start, end)) void this.read(rows, request);
  }

  private async read(rows: EntryWindow, request: PageRequest): Promise<void> {
    rows.asked(request);
    try {
      const page = await this.desk.activity.list({
        ...rows.filter,
        offset: request.offset,
        limit: request.limit,
      });
      // A filter changed meanwhile: this answer belongs to rows no longer shown.
      if (rows !== this.rows) return;
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

  /** An answer or an end was written: the entry it refers to shows its new outcome. */
  private async reread(seq: number): Promise<void> {
    const rows = this.rows;
    try {
      const { refersTo } = await this.desk.activity.get({ seq });
      if (!refersTo || !rows || rows !== this.rows) return;
      if (rows.replace(refersTo)) this.sync();
      if (this.openSeq === refersTo.seq) {
        const detail = await this.desk.activity.get({ seq: refersTo.seq });
        if (this.openSeq === refersTo.seq) this.detail = detail;
      }
    } catch {
      // The row keeps the outcome it was read with; opening it reads it afresh.
    }
  }

  /** Opens an entry's details (or another entry's, from a link in them). */
  async open(seq: number): Promise<void> {
    this.openSeq = seq;
    this.detail = null;
    this.detailFailure = null;
    try {
      const detail = await this.desk.activity.get({ seq });
      if (this.openSeq === seq) this.detail = detail;
    } catch (error) {
      if (this.openSeq === seq) this.detailFailure = asDeskError(error);
    }
  }

  close(): void {
    this.openSeq = null;
    this.detail = null;
    this.detailFailure = null;
  }
}
