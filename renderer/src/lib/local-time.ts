/**
 * Days and times in the manager's local time, written out by hand (YYYY-MM-DD, HH:MM). The first
 * locale formatter a page builds costs it tens of milliseconds in Chromium (its locale data is
 * loaded then): the book and the frame around it, a profile's first screen, show their times
 * and counts without one (counts with shared/figures' formatCount). The exact instant goes in
 * the title or the `datetime` beside them.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-03-03" in local time; "—" for none. */
export function localDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** "14:03:05" in local time, on the 24-hour clock as every time of the app. */
export function localClock(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "14:03" today, "2026-03-03 14:03" another day; "never" for none. */
export function localSyncTime(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const clock = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return d.toDateString() === now.toDateString() ? clock : `${localDay(iso)} ${clock}`;
}
