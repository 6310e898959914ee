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
import { matchesFilter } from './entry-window';
import { readFilter, type FilterProblem } from './filter';
import { LogRows } from './log-rows.svelte';

/** Kinds that settle what an earlier entry's outcome says (an answer, a retry, an end). */
const FOLLOW_UPS: readonly string[] = [
  'execution-answered',
  'execution-retried',
  'execution-dismissed',
  'version-ended',
];

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
  /** The rows of the filter, read a page at a time as they come into view. */
  readonly log: LogRows<ActivityEntrySummary, ActivityFilter>;

  openSeq = $state<number | null>(null);
  detail = $state.raw<ActivityEntryDetail | null>(null);
  detailFailure = $state<DeskError | null>(null);

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
    this.log = new LogRows((request) => desk.activity.list(request), matchesFilter);
  }

  start(): void {
    this.leave = this.appended.add((event) => {
      if (event.profileId !== this.profileId) return;
      this.log.heard(event.entry);
      if (FOLLOW_UPS.includes(event.entry.kind)) void this.reread(event.entry.seq);
    });
    this.apply();
  }

  stop(): void {
    this.leave?.();
    this.log.stop();
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
    this.filter = read.filter;
    this.log.open(read.filter);
  }

  /** An answer or an end was written: the entry it refers to shows its new outcome. */
  private async reread(seq: number): Promise<void> {
    const filter = this.log.filter;
    try {
      const { refersTo } = await this.desk.activity.get({ seq });
      if (!refersTo || !filter) return;
      this.log.replace(refersTo, filter);
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
