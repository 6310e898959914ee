import type { ActivityFilter } from './views';

/**
 * One rule for whether an entry belongs to a filtered view or export: the list that takes entries
 * heard live, and the check of an export file later. Plain code (no zod), so the renderer may use it.
 */

/** The UTC day of a timestamp, as the filter's days are counted. */
export function utcDay(iso: string): string {
  const instant = new Date(iso);
  return (Number.isNaN(instant.getTime()) ? iso : instant.toISOString()).slice(0, 10);
}

/** Why the entry is outside the filter, in the words of an export's check; null when it belongs. */
export function outsideActivityFilter(
  entry: { profileId: string; strategyId: string | null; kind: string; at: string },
  filter: ActivityFilter,
): string | null {
  if (entry.profileId !== filter.profileId)
    return `it is of profile ${entry.profileId}, the export only of ${filter.profileId}`;
  if (filter.strategyId !== undefined && entry.strategyId !== filter.strategyId)
    return `it is of strategy ${entry.strategyId ?? '(none)'}, the export only of ${filter.strategyId}`;
  const kinds: readonly string[] | undefined = filter.kinds;
  if (kinds !== undefined && !kinds.includes(entry.kind))
    return `its kind ${entry.kind} is not among the export's kinds`;
  const day = utcDay(entry.at);
  if (filter.from !== undefined && day < filter.from)
    return `it was written at ${entry.at}, before the export's first day ${filter.from}`;
  if (filter.to !== undefined && day > filter.to)
    return `it was written at ${entry.at}, after the export's last day ${filter.to}`;
  return null;
}
