/**
 * The "offset timestamps" fault: every timestamp of an answer written at a UTC offset instead of
 * in UTC (the same instant, microseconds kept), as a service in another zone may send them:
 * `2026-11-22T21:00:00.000000Z` at +120 minutes is `2026-11-22T23:00:00.000000+02:00`.
 */
const UTC = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})Z$/;

export function atOffset(utc: string, minutes: number): string {
  const m = UTC.exec(utc);
  if (!m) return utc;
  const local = new Date(Date.parse(`${m[1]}Z`) + minutes * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local}.${m[2]}${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function withOffsetTimestamps(value: unknown, minutes: number): unknown {
  if (Array.isArray(value)) return value.map((v) => withOffsetTimestamps(v, minutes));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, withOffsetTimestamps(v, minutes)]),
    );
  return typeof value === 'string' ? atOffset(value, minutes) : value;
}
