import type { DeskEventOf } from '../../../../shared/contract';
import type { DeskError, ExportResult } from '../../../../shared/views';
import { asDeskError } from '../errors';
import type { Listeners } from '../../../../shared/listeners';

export type ExportPhase = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

/**
 * One export as a screen follows it (every export of the app: orders, the activity log, the
 * book): rows written so far, then the saved file's path, nothing (cancelled) or the error in
 * plain words. The run gives its export an id of its own and hears only that export's
 * `export-progress` events, so two exports at once show two progresses.
 */
export class ExportRun {
  phase = $state<ExportPhase>('idle');
  rows = $state(0);
  /** Rows expected, when the screen knows (a version's orders); null draws an open-ended bar. */
  expected = $state<number | null>(null);
  result = $state.raw<ExportResult | null>(null);
  error = $state<DeskError | null>(null);

  constructor(
    /** The session's router tells it each `export-progress` event. */
    private readonly progress: Listeners<DeskEventOf<'export-progress'>>,
  ) {}

  get running(): boolean {
    return this.phase === 'running';
  }

  /** Runs `write` (a desk export called with the id given) unless this run's export is under way. */
  async start(
    write: (exportId: string) => Promise<ExportResult | null>,
    expected: number | null = null,
  ): Promise<void> {
    if (this.phase === 'running') return;
    const exportId = crypto.randomUUID();
    this.phase = 'running';
    this.rows = 0;
    this.expected = expected;
    this.result = null;
    this.error = null;
    const leave = this.progress.add((event) => {
      if (event.exportId === exportId) this.rows = Math.max(this.rows, event.rows);
    });
    try {
      const result = await write(exportId);
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
