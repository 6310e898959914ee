import { executeInThePast, newStrategy, scheduleVersion } from './demo-builders';
import type { RequestedPosition } from './engine';
import type { StrategyRec } from './state';

/**
 * The larger demo book of Demo Capital, beside the first three strategies (demo-data.ts): eight
 * more strategies in three themes (income, growth, balanced) with every state the book flags.
 * "Try the built-in sandbox" adds none of them: a manager (and the end-to-end test) adds them by
 * pasting their ids, and imports the versions below by id to let the app know them.
 */

export const DEMO_BOOK_STRATEGY_IDS = {
  /** Income: a COMPLETE version with one IGNORED order (too small to send). */
  incomePlus: 'd03106ef-4fd8-4b1f-8c64-243fa69eee89',
  /** Income: a COMPLETE version its holdings fit. */
  bondLadder: '84c6077a-7502-4805-8224-9779c8865870',
  /** Growth: a COMPLETE version and an unexecuted SCHEDULED one. */
  techLeaders: '698b2716-5f6d-4bef-bd0f-b6a2c8151a7b',
  /** Growth: a FAILED version (HALTED did not fill), liquidate-only with reason ORDER_FAILED. */
  smallCapGrowth: 'ad82f1e5-6f6a-4c44-9734-3c9bf8b1f182',
  /** Growth: an older version, then a newer one executed elsewhere that changed its holdings. */
  globalGrowth: '83dfc307-be05-4d6d-82e3-775545069b11',
  /** Balanced: a COMPLETE version its holdings fit. */
  balancedRetirement: '28deebf4-5675-42cc-9358-212a8cdefc7c',
  /** Balanced: a COMPLETE version, then liquidate-only at the client's request. */
  legacyBalanced: 'a439ea67-63d8-48a6-8384-803cc4a7117a',
  /** Balanced: holdings from a version whose id is not published (its target stays unknown). */
  balancedGrowth: '99335a82-e067-4f1e-b308-05d01cbd66a0',
} as const;

export const DEMO_BOOK_VERSION_IDS = {
  incomePlusExecuted: '1e31cc6f-ac9b-4bcb-9216-97412de44b0a',
  bondLadderExecuted: '9041c649-9c23-4a26-a5b7-351b2901fdd2',
  techLeadersExecuted: '33862cf9-1e24-49db-b370-97cc5518afd6',
  techLeadersScheduled: '48cfadfa-0f26-41fb-a376-3405d9f41138',
  smallCapGrowthFailed: '1f90ef52-274a-4f4e-a2f7-c911f2443ded',
  /** The version a manager knows; the newer one below was executed elsewhere. */
  globalGrowthKnown: 'd857e041-c2f1-4709-9067-2e1354a94382',
  globalGrowthElsewhere: '7cf55bd7-f730-418f-8629-da21345797b6',
  balancedRetirementExecuted: '0602aa61-11e7-4ede-8f00-9d54c3f65f69',
  legacyBalancedExecuted: '1750af8c-da7e-4356-93df-51c7e1b8ee76',
  balancedGrowthExecuted: 'e7a86b19-5cec-4eac-b6f0-f674da45dae7',
} as const;

/** The theme of each demo book strategy (the README's suggestion for tags). */
export const DEMO_BOOK_THEMES: Record<keyof typeof DEMO_BOOK_STRATEGY_IDS, string> = {
  incomePlus: 'Income',
  bondLadder: 'Income',
  techLeaders: 'Growth',
  smallCapGrowth: 'Growth',
  globalGrowth: 'Growth',
  balancedRetirement: 'Balanced',
  legacyBalanced: 'Balanced',
  balancedGrowth: 'Balanced',
};

const p = (symbol: string, weight: string): RequestedPosition => ({ symbol, weight });

export function buildDemoBook(organization: string): StrategyRec[] {
  const ids = DEMO_BOOK_STRATEGY_IDS;
  const versions = DEMO_BOOK_VERSION_IDS;
  const strategy = (
    id: string,
    name: string,
    description: string,
    fee_percent: string,
    cash: string,
  ) => newStrategy({ id, organization, name, description, fee_percent, cash });

  const incomePlus = strategy(
    ids.incomePlus,
    'Income Plus',
    'Dividend payers and income funds, with a token bond sleeve.',
    '0.30',
    '300000.00',
  );
  // BND at 0.0001% is a thirty-cent order: the service ignores it.
  executeInThePast(
    incomePlus,
    versions.incomePlusExecuted,
    [
      p('JNJ', '10'),
      p('PG', '10'),
      p('KO', '12'),
      p('PEP', '10'),
      p('VYM', '20'),
      p('SCHD', '25'),
      p('BND', '0.0001'),
    ],
    12,
  );

  const bondLadder = strategy(
    ids.bondLadder,
    'Bond Ladder',
    'Aggregate, total and long Treasury bond funds.',
    '0.15',
    '400000.00',
  );
  executeInThePast(
    bondLadder,
    versions.bondLadderExecuted,
    [p('AGG', '40'), p('BND', '30'), p('TLT', '20')],
    25,
  );

  const techLeaders = strategy(
    ids.techLeaders,
    'Tech Leaders',
    'The largest technology companies.',
    '0.45',
    '600000.00',
  );
  executeInThePast(
    techLeaders,
    versions.techLeadersExecuted,
    [
      p('AAPL', '15'),
      p('MSFT', '15'),
      p('NVDA', '15'),
      p('GOOGL', '10'),
      p('META', '10'),
      p('AVGO', '10'),
      p('ORCL', '5'),
    ],
    18,
  );
  scheduleVersion(
    techLeaders,
    versions.techLeadersScheduled,
    [
      p('AAPL', '12'),
      p('MSFT', '15'),
      p('NVDA', '18'),
      p('GOOGL', '10'),
      p('META', '10'),
      p('AVGO', '10'),
      p('ORCL', '5'),
    ],
    20,
    3,
  );

  const smallCapGrowth = strategy(
    ids.smallCapGrowth,
    'Small Cap Growth',
    'Small companies and a few fast growers.',
    '0.55',
    '200000.00',
  );
  // HALTED never fills: the version ends FAILED and the strategy becomes liquidate-only.
  executeInThePast(
    smallCapGrowth,
    versions.smallCapGrowthFailed,
    [p('IWM', '50'), p('TSLA', '20'), p('HALTED', '10')],
    9,
  );

  const globalGrowth = strategy(
    ids.globalGrowth,
    'Global Growth',
    'Broad market and growth funds.',
    '0.40',
    '800000.00',
  );
  executeInThePast(
    globalGrowth,
    versions.globalGrowthKnown,
    [p('VTI', '40'), p('QQQ', '20'), p('AGG', '20')],
    60,
  );
  // Executed elsewhere later: TSLA is held now, which the known version never targeted.
  executeInThePast(
    globalGrowth,
    versions.globalGrowthElsewhere,
    [p('VTI', '30'), p('QQQ', '25'), p('TSLA', '10'), p('AGG', '15')],
    7,
  );

  const balancedRetirement = strategy(
    ids.balancedRetirement,
    'Balanced Retirement',
    'Equities and bonds for a retirement income.',
    '0.25',
    '700000.00',
  );
  executeInThePast(
    balancedRetirement,
    versions.balancedRetirementExecuted,
    [p('VOO', '35'), p('AGG', '30'), p('BND', '15'), p('VYM', '10')],
    30,
  );

  const legacyBalanced = strategy(
    ids.legacyBalanced,
    'Legacy Balanced',
    'A closing account: sells only, at the client’s request.',
    '0.25',
    '350000.00',
  );
  executeInThePast(
    legacyBalanced,
    versions.legacyBalancedExecuted,
    [p('SPY', '30'), p('AGG', '30'), p('TLT', '20')],
    45,
  );
  // Flagged by the service without another change of the strategy's holdings or time.
  legacyBalanced.is_liquidate_only = true;
  legacyBalanced.liquidate_only_reason = 'CLIENT_REQUEST';

  const balancedGrowth = strategy(
    ids.balancedGrowth,
    'Balanced Growth',
    'Growth equities balanced with bonds.',
    '0.35',
    '450000.00',
  );
  executeInThePast(
    balancedGrowth,
    versions.balancedGrowthExecuted,
    [p('SPY', '40'), p('QQQ', '20'), p('AGG', '25')],
    40,
  );

  return [
    incomePlus,
    bondLadder,
    techLeaders,
    smallCapGrowth,
    globalGrowth,
    balancedRetirement,
    legacyBalanced,
    balancedGrowth,
  ];
}
