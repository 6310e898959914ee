import { isoDaysFromNow } from './clock';
import {
  createExecutedVersion,
  createUnexecutedVersion,
  fillOrders,
  type RequestedPosition,
  sendOrders,
} from './engine';
import type { StrategyRec } from './state';

/** How the demo strategies are made: funded with cash 180 days ago, then given their history. */

export function newStrategy(
  fields: Pick<
    StrategyRec,
    'id' | 'organization' | 'name' | 'description' | 'fee_percent' | 'cash'
  >,
): StrategyRec {
  const inserted = isoDaysFromNow(-180);
  return {
    ...fields,
    is_liquidate_only: false,
    liquidate_only_reason: null,
    inserted_at: inserted,
    updated_at: inserted,
    holdings: [],
    versions: [],
  };
}

/** Executes a target from the strategy's cash in the past and completes it at once. */
export function executeInThePast(
  strategy: StrategyRec,
  versionId: string,
  target: RequestedPosition[],
  daysAgo: number,
): void {
  const executedAt = isoDaysFromNow(-daysAgo);
  const version = createExecutedVersion(strategy, target, executedAt);
  version.id = versionId;
  sendOrders(version, isoDaysFromNow(-daysAgo, 1_000_000));
  fillOrders(strategy, version, isoDaysFromNow(-daysAgo, 2_000_000));
}

/** A version written but not executed, scheduled `daysAhead` from now, written `daysAgo`. */
export function scheduleVersion(
  strategy: StrategyRec,
  versionId: string,
  target: RequestedPosition[],
  daysAhead: number,
  daysAgo: number,
): void {
  const version = createUnexecutedVersion(
    strategy,
    target,
    isoDaysFromNow(daysAhead),
    isoDaysFromNow(-daysAgo),
  );
  version.id = versionId;
}
