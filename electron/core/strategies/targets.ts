import { knownTargetOf, targetCheckFrom } from '../../../shared/known-target';
import type { CurrentTarget, TargetCheckView } from '../../../shared/views';
import type { Store, StoredStrategy } from '../store';

/**
 * A strategy's known target (its latest executed version known here) and the version still
 * rebalancing it: what executing, a model's sync state, the book's row and the strategy's page
 * all start from. The target and the holdings against it are plain functions
 * (shared/known-target.ts).
 */

/** The repositories a strategy's known target is read from. */
export type TargetStore = Pick<Store, 'versions' | 'predictions'>;

export function currentTargetOf(
  store: Pick<Store, 'versions'>,
  profileId: string,
  strategyId: string,
): CurrentTarget | null {
  const latest = store.versions.latestExecuted(profileId, strategyId);
  return latest && knownTargetOf(latest);
}

/**
 * The strategy's known target (its latest executed version known here, with its orders) and the
 * holdings against it: what the Overview, the book's row and a model's sync state all start from.
 */
export function knownTargetWithCheck(
  store: TargetStore,
  profileId: string,
  strategy: Pick<StoredStrategy, 'id' | 'updated_at'>,
  holdings: readonly { symbol: string; quantity: string }[],
) {
  const known = store.versions.latestExecuted(profileId, strategy.id, { orders: true });
  const target: CurrentTarget | null = known && knownTargetOf(known);
  const check: TargetCheckView | null =
    known && target
      ? targetCheckFrom(known, target, holdings, strategy.updated_at, () =>
          store.predictions.baselineOf(profileId, strategy.id, known.id),
        )
      : null;
  return { known, target, check };
}

/** The version of a strategy still rebalancing, if any (newest first). */
export function runningVersionId(
  store: Pick<Store, 'versions'>,
  profileId: string,
  strategyId: string,
): string | null {
  const running = store.versions.listActive({ profileId, strategyId });
  return running.at(-1)?.id ?? null;
}
