import type { BookJob, BookRow } from '../../../shared/book/views';

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

const count = (n: number) => n.toLocaleString('en-US');

/** One line on a refresh or an add: how far, how many failed, whether it waits for the service. */
export function jobLine(job: BookJob): string {
  const verb = job.kind === 'refresh' ? 'Refreshed' : 'Read';
  const failed = job.failed > 0 ? ` · ${count(job.failed)} failed` : '';
  if (job.state === 'cancelled')
    return `Cancelled: ${verb.toLowerCase()} ${count(job.done)} of ${count(job.total)}${failed}; the others were left as they were.`;
  if (job.state === 'finished')
    return `${verb} ${count(job.done)} of ${count(job.total)}${failed}.`;
  const waiting = job.waitingUntil
    ? ` · the service asked to slow down: waiting until ${new Date(job.waitingUntil).toLocaleTimeString()}`
    : '';
  return `${job.kind === 'refresh' ? 'Refreshing' : 'Reading'}… ${count(job.done)} of ${count(job.total)}${failed} · ${job.concurrency} at a time${waiting}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A day and a time in the manager's local time, written out by hand (YYYY-MM-DD, HH:MM): a
 * table of hundreds of rows shows them without building a locale formatter (tens of
 * milliseconds each in Chromium) on the way to the first screen. The exact instant goes in the
 * cell's title.
 */
export function localDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** "14:03" today, "2026-03-03 14:03" another day. */
export function localSyncTime(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const clock = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return d.toDateString() === now.toDateString() ? clock : `${localDay(iso)} ${clock}`;
}
