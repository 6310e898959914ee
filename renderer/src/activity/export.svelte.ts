import type { ActivityFilter } from '../../../shared/activity/views';
import type { DeskApi, DeskEventOf } from '../../../shared/contract';
import type { Listeners } from '../../../shared/listeners';
import { ExportRun } from '../lib/stores/export-run.svelte';

export type ActivityExportFormat = 'csv' | 'jsonl';
export const FORMAT_LABELS: Record<ActivityExportFormat, string> = {
  csv: 'CSV',
  jsonl: 'JSON Lines',
};

/** One export of the filtered log, in the format last chosen, followed as every export is. */
export class ActivityExport extends ExportRun {
  format = $state<ActivityExportFormat>('csv');

  constructor(
    private readonly desk: DeskApi,
    progress: Listeners<DeskEventOf<'export-progress'>>,
  ) {
    super(progress);
  }

  async run(filter: ActivityFilter, format: ActivityExportFormat): Promise<void> {
    if (this.running) return;
    this.format = format;
    await this.start((exportId) => this.desk.activity.export({ filter, format, exportId }));
  }
}
