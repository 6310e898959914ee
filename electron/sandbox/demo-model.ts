import { DEMO_BOOK_STRATEGY_IDS as BOOK, DEMO_BOOK_VERSION_IDS as VERSIONS } from './demo-book';
import { executeBeforeHalt, newStrategy } from './demo-builders';
import type { StrategyRec } from './state';

/** The strategy of Demo Capital made for the demo model (beside the demo book's eight). */
export const HALTED_INCOME = {
  /** A COMPLETE version its holdings fit, HALTED among them (bought before the halt). */
  strategyId: '5d1b7a3e-0c2f-4e8a-9b6d-3f4e5a6b7c81',
  executedVersionId: '6e2c8b4f-1d3a-4f9b-8c7e-4a5f6b7c8d92',
} as const;

export function buildHaltedIncome(organization: string): StrategyRec {
  const haltedIncome = newStrategy({
    id: HALTED_INCOME.strategyId,
    organization,
    name: 'Halted Income',
    description: 'Bond funds and one holding whose trading was halted after it was bought.',
    fee_percent: '0.20',
    cash: '300000.00',
  });
  // Its holdings fit its target; selling HALTED (or buying more) fails from now on.
  executeBeforeHalt(
    haltedIncome,
    HALTED_INCOME.executedVersionId,
    [
      { symbol: 'AGG', weight: '40' },
      { symbol: 'BND', weight: '30' },
      { symbol: 'HALTED', weight: '10' },
    ],
    35,
  );
  return haltedIncome;
}

/**
 * "The demo model" the built-in sandbox profile starts with (README, The built-in sandbox): an
 * app-wide model followed by part of the demo book (and Halted Income, made for it), chosen so that a review of all its followers
 * shows every case a batch review knows. Its rows are Bond Ladder's target.
 */
export const DEMO_MODEL = {
  name: 'Demo model',
  description:
    'Bond funds, followed by part of the demo book: a review of its followers shows every case.',
  note: 'The demo model of the built-in sandbox',
  rows: [
    { symbol: 'AGG', weight: '40' },
    { symbol: 'BND', weight: '30' },
    { symbol: 'TLT', weight: '20' },
  ],
  /** Each follower with the versions imported so the app knows them, and the case it shows. */
  followers: [
    // In sync: its known target is the model's rows.
    { strategyId: BOOK.bondLadder, versionIds: [VERSIONS.bondLadderExecuted] },
    // Out of sync: sells VOO and VYM whole, raises AGG and BND, adds TLT.
    { strategyId: BOOK.balancedRetirement, versionIds: [VERSIONS.balancedRetirementExecuted] },
    // Target unknown (no version of it is published): uncertain, needs an acknowledgement.
    { strategyId: BOOK.balancedGrowth, versionIds: [] },
    // Possibly changed elsewhere (it holds TSLA its known target never had): needs an acknowledgement.
    { strategyId: BOOK.globalGrowth, versionIds: [VERSIONS.globalGrowthKnown] },
    // Liquidate-only, and the model raises AGG, which it holds: excluded with the reason.
    { strategyId: BOOK.legacyBalanced, versionIds: [VERSIONS.legacyBalancedExecuted] },
    // An unexecuted SCHEDULED version in the way: excluded until it is deleted where it shows.
    {
      strategyId: BOOK.techLeaders,
      versionIds: [VERSIONS.techLeadersExecuted, VERSIONS.techLeadersScheduled],
    },
    // Holds HALTED, which the model sells whole: included, and its sell order fails (FAILED).
    { strategyId: HALTED_INCOME.strategyId, versionIds: [HALTED_INCOME.executedVersionId] },
  ],
} as const;
