import type { VersionSummary } from '../../../shared/views';

/** The history's order, as the desk lists it: newest first, then by id. */
function historyOrder(a: VersionSummary, b: VersionSummary): number {
  if (a.insertedAt !== b.insertedAt) return a.insertedAt < b.insertedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The history with one version's line as an event told it: replaced in place, or added where
 * the desk would list it. A line read later (a newer sync) than the one told stays.
 */
export function withSummary(
  history: readonly VersionSummary[],
  told: VersionSummary,
): VersionSummary[] {
  const known = history.find((v) => v.id === told.id);
  if (known) {
    if (known.syncedAt > told.syncedAt) return [...history];
    return history.map((v) => (v.id === told.id ? told : v));
  }
  return [...history, told].sort(historyOrder);
}
