/**
 * A date range typed as two calendar days (the manager's local time), as the ISO timestamps the
 * report needs: versions executed from the start of `from` up to the end of `to`, both included.
 */
export type RangeParse =
  { ok: true; from: string; to: string } | { ok: false; field: 'from' | 'to'; error: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function localMidnight(day: string): Date | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date = new Date(y, mo, d);
  // new Date(2025, 1, 31) rolls over to March: refuse days that do not exist.
  if (date.getFullYear() !== y || date.getMonth() !== mo || date.getDate() !== d) return null;
  return date;
}

export function parseDateRange(from: string, to: string): RangeParse {
  if (from === '') return { ok: false, field: 'from', error: 'Choose the first day.' };
  if (to === '') return { ok: false, field: 'to', error: 'Choose the last day.' };
  const start = localMidnight(from);
  if (!start) return { ok: false, field: 'from', error: 'This is not a valid day (YYYY-MM-DD).' };
  const last = localMidnight(to);
  if (!last) return { ok: false, field: 'to', error: 'This is not a valid day (YYYY-MM-DD).' };
  if (start > last)
    return { ok: false, field: 'to', error: 'The last day comes before the first day.' };
  // The report's end is exclusive: the midnight after the last day.
  const end = new Date(last.getFullYear(), last.getMonth(), last.getDate() + 1);
  return { ok: true, from: start.toISOString(), to: end.toISOString() };
}

/** Today as YYYY-MM-DD in local time, for the date inputs' defaults. */
export function localDay(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
