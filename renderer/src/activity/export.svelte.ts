import type { ActivityFilter } from '../../../shared/activity/views';
import type { DeskApi } from '../../../shared/contract';
import type { DeskError, ExportResult } from '../../../shared/views';
import { asDeskError } from '../lib/errors';

export type ActivityExportFormat = 'csv' | 'jsonl';
export const FORMAT_LABELS: Record<ActivityExportFormat, string> = {
  csv: 'CSV',
  jsonl: 'JSON Lines',
};

/** One export of the filtered log: running, then the saved file, nothing (cancelled) or the error. */
export class ActivityExport {
  phase = $state<'idle' | 'running' | 'done' | 'cancelled' | 'failed'>('idle');
  format = $state<ActivityExportFormat>('csv');
  result = $state.raw<ExportResult | null>(null);
  error = $state<DeskError | null>(null);

  constructor(private readonly desk: DeskApi) {}

  async run(filter: ActivityFilter, format: ActivityExportFormat): Promise<void> {
    if (this.phase === 'running') return;
    this.phase = 'running';
    this.format = format;
    this.result = null;
    this.error = null;
    try {
      const result = await this.desk.activity.export({ filter, format });
      this.result = result;
      this.phase = result ? 'done' : 'cancelled';
    } catch (error) {
      this.error = asDeskError(error);
      this.phase = 'failed';
    }
  }
}
