import { Decimal, isDecimalString } from '../../../shared/decimal';
import { isZeroString } from '../../../shared/draft/exact';
import type { ExposureView } from '../../../shared/book/views';
import type { Store } from '../store';

/**
 * Exposure to one symbol across a profile's book: which strategies hold it and how much (the
 * cached holdings, summed exactly per strategy), which target it (their known targets), and how
 * many strategies have a target the app does not know, so "nobody targets it" is never claimed
 * beyond what the app has seen. No price, no value: quantities as the service sent them.
 */
export function exposureOf(
  store: Store,
  profileId: string,
  symbol: string,
  staleBefore: string,
): ExposureView {
  const held = new Map<string, Decimal>();
  for (const h of store.book.holdersOf(profileId, symbol)) {
    if (!isDecimalString(h.quantity)) continue;
    held.set(h.strategy_id, (held.get(h.strategy_id) ?? new Decimal(0)).plus(h.quantity));
  }
  const targeted = new Map<string, string>();
  for (const t of store.book.targetWeightsOf(profileId, symbol))
    if (!isZeroString(t.weight)) targeted.set(t.strategy_id, t.weight);
  const ids = [...new Set([...held.keys(), ...targeted.keys()])];
  const rows = store.book.rows(profileId, ids, staleBefore).map((row) => ({
    strategyId: row.strategy_id,
    name: row.name,
    quantity: held.has(row.strategy_id) ? held.get(row.strategy_id)!.toFixed() : null,
    targetWeight: targeted.get(row.strategy_id) ?? null,
    targetState: row.target_state,
    syncedAt: row.synced_at,
  }));
  const total = [...held.values()].reduce((sum, q) => sum.plus(q), new Decimal(0));
  return {
    symbol,
    rows,
    totalQuantity: total.toFixed(),
    holders: rows.filter((r) => r.quantity !== null).length,
    targeting: rows.filter((r) => r.targetWeight !== null).length,
    unknownTargets: store.book.countUnknownTargets(profileId),
  };
}
