/**
 * A formatter made on first use: each costs milliseconds to build in Chromium, and the welcome
 * screen, the first thing a manager waits for, shows no time at all. Every time of day is on the
 * 24-hour clock, as the first screen writes it by hand (local-time.ts): one time format across
 * the app, whatever the locale's habit.
 */
function lazyFormat(options: Intl.DateTimeFormatOptions): { format: (d: Date) => string } {
  let made: Intl.DateTimeFormat | undefined;
  const withClock: Intl.DateTimeFormatOptions =
    options.hour === undefined ? options : { ...options, hourCycle: 'h23' };
  return { format: (d) => (made ??= new Intl.DateTimeFormat(undefined, withClock)).format(d) };
}

const dateTime = lazyFormat({
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const date = lazyFormat({ year: 'numeric', month: 'short', day: 'numeric' });
const time = lazyFormat({ hour: '2-digit', minute: '2-digit' });

/** A timestamp in the manager's local time; the exact value goes in the tooltip. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

/**
 * A timestamp's date and time apart ("Nov 25, 2026", "19:32"), for a narrow column that may
 * break the line between them, never inside either.
 */
export function formatDateTimeParts(iso: string | null | undefined): [string, string] | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : [date.format(d), time.format(d)];
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : date.format(d);
}

/** "14:03" today, "Mar 3, 2025, 14:03" otherwise. */
export function formatSyncTime(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toDateString() === now.toDateString() ? time.format(d) : dateTime.format(d);
}

const clockToSecond = lazyFormat({ hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dateTimeToSecond = lazyFormat({
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** An instant in the manager's local time to the second (when an activity entry was written). */
export function localTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeToSecond.format(d);
}

/**
 * `localTime` as its day and its time, for a narrow column that puts them on two lines (the
 * format's last ", " separates them; a format without one is the day alone).
 */
export function localDayAndTime(iso: string): [string, string] {
  const whole = localTime(iso);
  const at = whole.lastIndexOf(', ');
  return at === -1 ? [whole, ''] : [whole.slice(0, at + 1), whole.slice(at + 2)];
}

/** The same instant in UTC, for the tooltip: what the log and its exports hold. */
export function utcTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().replace('T', ' ').slice(0, 23)} UTC`;
}

/** A step's time to the second: "14:03:05" today, with the date otherwise. */
export function formatTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toDateString() === now.toDateString()
    ? clockToSecond.format(d)
    : dateTimeToSecond.format(d);
}

const UUID_IN_TEXT = /\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/**
 * A sentence with its ids shortened to their first eight digits ("version a1c3e5f7…"), for a
 * list's line; the whole sentence goes in its title and its details.
 */
export function shortenIds(text: string): string {
  return text.replace(UUID_IN_TEXT, '$1…');
}
