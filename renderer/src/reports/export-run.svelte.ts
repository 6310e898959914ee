import type { DeskApi, DeskEventOf } from '../../../shared/contract';
import type { DeskError, ExportResult, ReportSelection } from '../../../shared/views';
import { asDeskError } from '../lib/errors';
import type { Audience } from '../lib/stores/audience';

export type ExportPhase = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

/**
 * One CSV export as the screen follows it: rows written so far (from `export-progress` events),
 * then the saved file's path, or the error in plain words.
 */
export class ExportRun {
  phase = $state<ExportPhase>('idle');
  rows = $state(0);
  /** Rows expected, when the screen knows (a version's orders); null draws an open-ended bar. */
  expected = $state<number | null>(null);
  result = $state<ExportResult | null>(null);
  error = $state<DeskError | null>(null);

  constructor(
    private readonly desk: DeskApi,
    /** The session's router tells it each `export-progress` event. */
    private readonly progress: Audience<DeskEventOf<'export-progress'>>,
  ) {}

  get running(): boolean {
    return this.phase === 'running';
  }

  async start(profileId: string, selection: ReportSelection, expected: number | null = null) {
    if (this.phase === 'running') return;
    this.phase = 'running';
    this.rows = 0;
    this.expected = expected;
    this.result = null;
    this.error = null;
    // The export's id is known only at the end; this screen runs one export at a time.
    const leave = this.progress.join((event) => {
      if (this.phase === 'running') this.rows = Math.max(this.rows, event.rows);
    });
    try {
      const result = await this.desk.reports.exportOrders({ profileId, selection });
      if (result === null) {
        this.phase = 'cancelled';
      } else {
        this.result = result;
        this.rows = result.rows;
        this.phase = 'done';
      }
    } catch (error) {
      this.error = asDeskError(error);
      this.phase = 'failed';
    } finally {
      leave();
    }
  }
}
