/**
 * Timestamps as the service writes them: ISO 8601 UTC with microseconds and Z,
 * e.g. 2026-11-22T10:15:30.123456Z. Successive calls never return the same
 * instant, so "newest inserted" is always well defined.
 */
let lastMicros = 0n;

/** Microseconds since the epoch, strictly increasing within this process. */
export function nowMicros(): bigint {
  const micros = BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000));
  lastMicros = micros > lastMicros ? micros : lastMicros + 1n;
  return lastMicros;
}

export function isoFromMicros(micros: bigint): string {
  const millis = Number(micros / 1000n);
  const extra = (micros % 1000n).toString().padStart(3, '0');
  return new Date(millis).toISOString().replace('Z', `${extra}Z`);
}

/** Now, as an ISO 8601 timestamp with microseconds. */
export function nowIso(): string {
  return isoFromMicros(nowMicros());
}

/** A timestamp `days` from now (negative for the past), with a microsecond part. */
export function isoDaysFromNow(days: number, extraMicros = 0): string {
  const micros = nowMicros() + BigInt(Math.round(days * 86_400_000_000)) + BigInt(extraMicros);
  return isoFromMicros(micros);
}

/** The UTC date (YYYY-MM-DD) of an ISO timestamp: an order's `date`. */
export function dateOf(iso: string): string {
  return iso.slice(0, 10);
}
