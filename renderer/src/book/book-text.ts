import type { BookJob, BookRow } from '../../../shared/book/views';
import { formatCount } from '../../../shared/figures';
import { localClock } from '../lib/local-time';

/** The book's words: where a target comes from, and how a read of many strategies stands. */

export function targetText(row: BookRow): { title: string } {
  const { target } = row;
  if (target.state === 'unknown')
    return {
      title:
        'No executed version of this strategy is known here: its current target is unknown. Import its latest version by id to know it.',
    };
  const from = `From version ${target.versionId} executed ${target.executedAt ?? 'at a time not known'}.`;
  if (target.state === 'known') return { title: `${from} The holdings fit it.` };
  return {
    title: `${from} The holdings do not fit it${
      target.symbols.length > 0 ? ` (${target.symbols.join(', ')})` : ''
    }: a version may have been executed elsewhere.`,
  };
}

/**
 * Whether a refresh's line is still worth showing: under way, or ended with no add begun since
 * (after one, "Refreshed 9 of 9" no longer says how the book stands).
 */
export function refreshLineShown(refresh: BookJob | null, add: BookJob | null): boolean {
  if (!refresh) return false;
  if (refresh.state === 'running') return true;
  if (refresh.total === 0) return false;
  return !(add && refresh.endedAt !== null && add.startedAt >= refresh.endedAt);
}

/** One line on a refresh or an add: how far, how many failed, whether it waits for the service. */
export function jobLine(job: BookJob): string {
  const verb = job.kind === 'refresh' ? 'Refreshed' : 'Read';
  const failed = job.failed > 0 ? ` · ${formatCount(job.failed)} failed` : '';
  if (job.state === 'cancelled')
    return `Cancelled: ${verb.toLowerCase()} ${formatCount(job.done)} of ${formatCount(job.total)}${failed}; the others were left as they were.`;
  if (job.state === 'finished')
    return `${verb} ${formatCount(job.done)} of ${formatCount(job.total)}${failed}.`;
  const waiting = job.waitingUntil
    ? ` · the service asked to slow down: waiting until ${localClock(job.waitingUntil)}`
    : '';
  return `${job.kind === 'refresh' ? 'Refreshing' : 'Reading'}… ${formatCount(job.done)} of ${formatCount(job.total)}${failed} · ${job.concurrency} at a time${waiting}`;
}
