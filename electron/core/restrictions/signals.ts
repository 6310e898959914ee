import { KIND_WORDS } from '../../../shared/restrictions/rules';
import type { SignalSource } from '../attention/queue';
import type { Store } from '../store';

/**
 * The attention queue's restricted orders (docs/attention.md): each order of an ended rebalance
 * that the list in force when it was executed forbids (after-end.ts stored it), one signal per
 * order and rule, overridden or not: an override lets the execution through, the order it made
 * still needs a look. One indexed query by profile; the desk hands this source to the queue.
 */
export function restrictedOrderSignals(store: Pick<Store, 'restrictions'>): SignalSource {
  return (profileId) =>
    store.restrictions.findingsOfProfile(profileId).map((f) => ({
      kind: 'restricted-order',
      strategy_id: f.strategyId,
      subject: `${f.versionId}/${f.orderId}/${f.restrictionId}`,
      symbol: f.symbol,
      before: `${KIND_WORDS[f.restrictionKind]}${f.overridden ? ' (overridden when executed)' : ''}`,
      now: `${f.side === 'BUY' ? 'bought' : 'sold'} ${f.quantity} (order ${f.orderStatus.toLowerCase()})`,
      version_id: f.versionId,
    }));
}
