import { executeInThePast, newStrategy } from './demo-builders';
import type { StrategyRec } from './state';

/** The strategy of Demo Capital made for the attention queue's partial fill (demo-attention.ts). */
export const THIN_MARKET = {
  /** A FAILED version: NVDA filled half of its order (a thin market), the rest failed. */
  strategyId: '3b9e2f4a-7c1d-4e5b-8a6f-9d0c1b2e3f45',
  executedVersionId: '4c0f3a5b-8d2e-4f6c-9b7a-0e1d2c3f4a56',
} as const;

export function buildThinMarket(organization: string): StrategyRec {
  const thinMarket = newStrategy({
    id: THIN_MARKET.strategyId,
    organization,
    name: 'Thin Market Value',
    description: 'Value names traded in thin markets: orders may fill in part.',
    fee_percent: '0.40',
    cash: '400000.00',
  });
  executeInThePast(
    thinMarket,
    THIN_MARKET.executedVersionId,
    [
      { symbol: 'JPM', weight: '30' },
      { symbol: 'NVDA', weight: '20' },
      { symbol: 'XOM', weight: '25' },
    ],
    5,
    { NVDA: '0.5' },
  );
  return thinMarket;
}
