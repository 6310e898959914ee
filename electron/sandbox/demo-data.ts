import type { Scope } from '../../shared/domain/resources';
import { SCOPES } from '../../shared/domain/resources';
import { buildDemoBook } from './demo-book';
import { executeInThePast, newStrategy, scheduleVersion } from './demo-builders';
import { buildThinMarket } from './demo-thin-market';
import { buildHaltedIncome } from './demo-model';
import type { RequestedPosition } from './engine';
import { SandboxState } from './state';

/**
 * The sandbox's demo data (docs/decisions.md, The built-in sandbox): fixed ids, organizations and
 * clients, so tests, the README and the app can rely on them.
 */

export const DEMO_ORGANIZATIONS = {
  demoCapital: 'Demo Capital',
  otherAdvisors: 'Other Advisors',
} as const;

export const DEMO_STRATEGY_IDS = {
  coreEquity: 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21',
  dividendGrowth: 'fcf7399e-c3c7-42b0-88af-f28bbb709316',
  freshStart: 'b4ad3dd3-28ec-455a-81fc-b07cb0c90a85',
  otherFund: '76b772e0-bfe5-4a27-af16-209f16a319da',
} as const;

/** Versions the demo data starts with (fixed too, so a reset gives the same ids). */
export const DEMO_VERSION_IDS = {
  coreEquityExecuted: '5b0e6f0a-3c1d-4e2b-9a47-1f6d2c8e7b01',
  dividendGrowthExecuted: '8d2f4a61-7b3e-4c59-a0d8-2e9f1b6c4d02',
  dividendGrowthScheduled: 'a1c3e5f7-9b2d-4f6a-8c0e-3d5b7f9a1c03',
  otherFundExecuted: 'e4f6a8b0-2c4d-4e6f-9a1b-5c7d9e1f3a04',
} as const;

export interface SandboxClient {
  client_id: string;
  client_secret: string;
  organization: string;
  scopes: readonly Scope[];
}

export const DEMO_CLIENTS = {
  manager: {
    client_id: 'demo-manager',
    client_secret: 'demo-secret',
    organization: DEMO_ORGANIZATIONS.demoCapital,
    scopes: SCOPES,
  },
  viewer: {
    client_id: 'demo-viewer',
    client_secret: 'demo-secret',
    organization: DEMO_ORGANIZATIONS.demoCapital,
    scopes: ['strategies:read', 'strategy_versions:read'],
  },
  otherManager: {
    client_id: 'other-manager',
    client_secret: 'other-secret',
    organization: DEMO_ORGANIZATIONS.otherAdvisors,
    scopes: SCOPES,
  },
} as const satisfies Record<string, SandboxClient>;

export const SANDBOX_CLIENTS: readonly SandboxClient[] = Object.values(DEMO_CLIENTS);

const CORE_EQUITY_TARGET: RequestedPosition[] = [
  { symbol: 'AAPL', weight: '15' },
  { symbol: 'MSFT', weight: '15' },
  { symbol: 'NVDA', weight: '10' },
  { symbol: 'AMZN', weight: '10' },
  { symbol: 'BRK.B', weight: '10' },
  { symbol: 'JPM', weight: '8' },
  { symbol: 'SPY', weight: '20' },
];

const DIVIDEND_GROWTH_TARGET: RequestedPosition[] = [
  { symbol: 'JNJ', weight: '12' },
  { symbol: 'PG', weight: '12' },
  { symbol: 'KO', weight: '10' },
  { symbol: 'PEP', weight: '10' },
  { symbol: 'ABBV', weight: '8' },
  { symbol: 'XOM', weight: '8' },
  { symbol: 'SCHD', weight: '20' },
  { symbol: 'VYM', weight: '15' },
];

/** The pending change: trims JNJ, raises KO, swaps XOM for CVX. */
const DIVIDEND_GROWTH_SCHEDULED: RequestedPosition[] = [
  { symbol: 'JNJ', weight: '10' },
  { symbol: 'PG', weight: '12' },
  { symbol: 'KO', weight: '12' },
  { symbol: 'PEP', weight: '10' },
  { symbol: 'ABBV', weight: '8' },
  { symbol: 'XOM', weight: '0' },
  { symbol: 'SCHD', weight: '20' },
  { symbol: 'VYM', weight: '15' },
  { symbol: 'CVX', weight: '8' },
];

const OTHER_FUND_TARGET: RequestedPosition[] = [
  { symbol: 'QQQ', weight: '30' },
  { symbol: 'GOOGL', weight: '20' },
  { symbol: 'AGG', weight: '25' },
  { symbol: 'TLT', weight: '15' },
];

export function buildDemoState(): SandboxState {
  const coreEquity = newStrategy({
    id: DEMO_STRATEGY_IDS.coreEquity,
    organization: DEMO_ORGANIZATIONS.demoCapital,
    name: 'Core Equity',
    description: 'Large-cap US equities with an S&P 500 core.',
    fee_percent: '0.25',
    cash: '1000000.00',
  });
  executeInThePast(coreEquity, DEMO_VERSION_IDS.coreEquityExecuted, CORE_EQUITY_TARGET, 14);

  const dividendGrowth = newStrategy({
    id: DEMO_STRATEGY_IDS.dividendGrowth,
    organization: DEMO_ORGANIZATIONS.demoCapital,
    name: 'Dividend Growth',
    description: 'Companies and funds with a record of rising dividends.',
    fee_percent: '0.35',
    cash: '500000.00',
  });
  executeInThePast(
    dividendGrowth,
    DEMO_VERSION_IDS.dividendGrowthExecuted,
    DIVIDEND_GROWTH_TARGET,
    21,
  );
  scheduleVersion(
    dividendGrowth,
    DEMO_VERSION_IDS.dividendGrowthScheduled,
    DIVIDEND_GROWTH_SCHEDULED,
    30,
    2,
  );

  const freshStart = newStrategy({
    id: DEMO_STRATEGY_IDS.freshStart,
    organization: DEMO_ORGANIZATIONS.demoCapital,
    name: 'Fresh Start',
    description: 'A new strategy funded with cash, waiting for its first target.',
    fee_percent: '0.20',
    cash: '250000.00',
  });

  const otherFund = newStrategy({
    id: DEMO_STRATEGY_IDS.otherFund,
    organization: DEMO_ORGANIZATIONS.otherAdvisors,
    name: 'Other Fund',
    description: 'Balanced growth and bonds, managed by Other Advisors.',
    fee_percent: '0.50',
    cash: '750000.00',
  });
  executeInThePast(otherFund, DEMO_VERSION_IDS.otherFundExecuted, OTHER_FUND_TARGET, 30);

  // The larger demo book (demo-book.ts) follows the first strategies; their ids and states stay.
  return new SandboxState([
    coreEquity,
    dividendGrowth,
    freshStart,
    otherFund,
    ...buildDemoBook(DEMO_ORGANIZATIONS.demoCapital),
    buildHaltedIncome(DEMO_ORGANIZATIONS.demoCapital),
    buildThinMarket(DEMO_ORGANIZATIONS.demoCapital),
  ]);
}
