import { KIND_WORDS, type Restriction } from '../../../shared/restrictions/rules';
import type { Store } from '../store';
import type { StoredFinding } from '../store/repositories/restrictions';

/**
 * After a rebalance ends, its real orders are checked against the list in force when its
 * execution was armed (kept with the journal entry, migration 014): a BUY of a do-not-buy or
 * hold symbol, a SELL of a do-not-sell or hold symbol. Orders the service ignored (below its
 * minimum) or that failed traded nothing and are not checked. Each finding is stored once in
 * `restriction_findings`, read by the version's detail and by the attention queue.
 */

const TRADED = new Set(['PENDING', 'SENT', 'FILLED']);

const forbids = (rule: Restriction, side: 'BUY' | 'SELL') =>
  rule.kind === 'hold' ||
  (side === 'BUY' ? rule.kind === 'do-not-buy' : rule.kind === 'do-not-sell');

/** Checks the ended version's orders and stores what it finds; answers the findings. */
export function checkEndedRebalance(
  store: Pick<Store, 'restrictions' | 'versions'>,
  profileId: string,
  versionId: string,
  now: string,
): StoredFinding[] {
  const list = store.restrictions.listOfVersion(profileId, versionId);
  if (!list || list.rules.length === 0) return [];
  const bySymbol = new Map<string, Restriction[]>();
  for (const rule of list.rules)
    bySymbol.set(rule.symbol, [...(bySymbol.get(rule.symbol) ?? []), rule]);
  const overridden = new Set(list.overrideSymbols ?? []);
  const findings: StoredFinding[] = [];
  for (const order of store.versions.orders(profileId, versionId)) {
    if (!TRADED.has(order.status)) continue;
    const symbol = order.symbol.toUpperCase();
    for (const rule of bySymbol.get(symbol) ?? []) {
      if (!forbids(rule, order.side)) continue;
      const quantity = order.filled_quantity ?? order.order_quantity;
      const verb = order.side === 'BUY' ? 'bought' : 'sold';
      findings.push({
        profileId,
        strategyId: list.strategyId,
        versionId,
        orderId: order.id,
        symbol,
        side: order.side,
        orderStatus: order.status,
        quantity,
        restrictionId: rule.id,
        restrictionKind: rule.kind,
        overridden: overridden.has(symbol),
        message:
          `The rebalance ${verb} ${quantity} ${symbol} (order ${order.status.toLowerCase()}), ` +
          `against ${KIND_WORDS[rule.kind]} (${rule.reason}, set by ${rule.setBy})` +
          (overridden.has(symbol)
            ? `; overridden when executed: ${list.overrideNote ?? ''}.`
            : '.'),
        foundAt: now,
      });
    }
  }
  if (findings.length > 0) store.restrictions.addFindings(findings);
  return findings;
}
