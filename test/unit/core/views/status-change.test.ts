import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SETTLED_STRATEGY_MAX_LINES,
  versionStatusChanged,
} from '../../../../electron/core/views/strategy';
import {
  openTemp,
  seedStrategy,
  strategyResponse,
  ts,
  versionResponse,
} from '../../../support/store-fixtures';

/**
 * A version's end carries the strategy as it ended, so its page needs no read; a strategy too
 * large to carry is left out, and its page reads it (the event stays small).
 */

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((close) => close()));

function ended(holdings: number) {
  const temp = openTemp();
  cleanup.push(temp.close);
  const strategy = strategyResponse({
    positions: Array.from({ length: holdings }, (_, i) => ({
      id: randomUUID(),
      symbol: `H${i}`,
      quantity: '1',
      inserted_at: ts(2),
      updated_at: ts(3),
    })),
  });
  const { profileId, strategyId } = seedStrategy(temp.store, strategy);
  const version = versionResponse(strategyId, { orders: 1, positions: 3 }, { status: 'COMPLETE' });
  temp.store.versions.upsert(profileId, version, { origin: 'created' });
  return versionStatusChanged(temp.store, {
    profileId,
    strategyId,
    versionId: version.id,
    previousStatus: 'IN_PROGRESS',
    status: 'COMPLETE',
    ended: true,
  });
}

describe('a version status change: the strategy as it ended', () => {
  it('is carried up to the limit of holdings and target lines', () => {
    // The version's target has three positions: three target lines, the limit exactly.
    const carried = ended(SETTLED_STRATEGY_MAX_LINES - 3);
    expect(carried?.settledStrategy?.holdings).toHaveLength(SETTLED_STRATEGY_MAX_LINES - 3);
    expect(carried!.settledStrategy!.currentTarget?.positions).toHaveLength(3);
  });

  it('is left out beyond it, the rest of the event still there', () => {
    const left = ended(SETTLED_STRATEGY_MAX_LINES - 2);
    expect(left).not.toBeNull();
    expect(left!.settledStrategy).toBeNull();
    expect(left!.version.status).toBe('COMPLETE');
    expect(left!.strategy).not.toBeNull();
  });
});
