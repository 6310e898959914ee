import { DEMO_BOOK_STRATEGY_IDS as BOOK, DEMO_BOOK_VERSION_IDS as VERSIONS } from './demo-book';
import { DEMO_STRATEGY_IDS } from './demo-data';
import { THIN_MARKET } from './demo-thin-market';

/**
 * What the app's sandbox profile starts with for the attention queue (docs/attention.md): one of
 * each signal. A strategy whose last rebalance left an order partly filled (Thin Market Value,
 * made for it), Small Cap Growth's failed rebalance, a calendar schedule that is due, and,
 * once the desk has taken the snapshot of Core Equity and Dividend Growth as if it had seen their
 * rebalances end, a trade outside the app and a split through the sandbox's admin routes. Two
 * drafts are executed through the app's one execution flow: Fresh Start's buys TSLA against the
 * demo's do-not-buy, overridden by name (a restricted order once its rebalance ends), and Income
 * Plus's answer is lost by the sandbox's `drop_after_commit_next` fault (an unknown outcome).
 */

/** An admin route of the sandbox, with its body: what happens outside the app. */
interface OutsideEvent {
  strategyId: string;
  route: 'outside-trades' | 'splits';
  body: Record<string, string>;
}

const OUTSIDE_EVENTS: readonly OutsideEvent[] = [
  // Core Equity: a trade outside the app (AAPL sold), a symbol sold whole (JPM), one bought (TLT).
  {
    strategyId: DEMO_STRATEGY_IDS.coreEquity,
    route: 'outside-trades',
    body: { symbol: 'AAPL', side: 'SELL', quantity: '20' },
  },
  {
    strategyId: DEMO_STRATEGY_IDS.coreEquity,
    route: 'outside-trades',
    body: { symbol: 'TLT', side: 'BUY', quantity: '50' },
  },
  // Dividend Growth: a 2-for-1 split of KO.
  {
    strategyId: DEMO_STRATEGY_IDS.dividendGrowth,
    route: 'splits',
    body: { symbol: 'KO', ratio: '2' },
  },
];

/** Sells a symbol whole, in two trades: one share, then what the answer says is left. */
async function sellWhole(baseUrl: string, strategyId: string, symbol: string): Promise<void> {
  const path = `/sandbox/strategies/${strategyId}/outside-trades`;
  const first = (await admin(baseUrl, 'POST', path, { symbol, side: 'SELL', quantity: '1' })) as {
    data: { positions: { symbol: string; quantity: string }[] };
  };
  const left = first.data.positions.find((h) => h.symbol === symbol);
  if (left) await admin(baseUrl, 'POST', path, { symbol, side: 'SELL', quantity: left.quantity });
}

async function admin(baseUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'x-sandbox-admin': '1',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(
      `The sandbox refused ${method} ${path}: ${response.status} ${await response.text()}`,
    );
  return response.json() as Promise<unknown>;
}

export const DEMO_ATTENTION = {
  /** Added to the profile with these versions imported (besides the first three and the model's). */
  strategies: [
    { strategyId: THIN_MARKET.strategyId, versionIds: [THIN_MARKET.executedVersionId] },
    { strategyId: BOOK.smallCapGrowth, versionIds: [VERSIONS.smallCapGrowthFailed] },
    { strategyId: BOOK.incomePlus, versionIds: [VERSIONS.incomePlusExecuted] },
  ],
  /** Fresh Start's first target buys TSLA, which the demo's restriction forbids: overridden. */
  restrictedExecution: {
    strategyId: DEMO_STRATEGY_IDS.freshStart,
    draftName: 'Tesla under the exception',
    rows: [
      { symbol: 'VTI', weight: '60' },
      { symbol: 'TSLA', weight: '5' },
      { symbol: 'BND', weight: '30' },
    ],
    override: {
      symbols: ['TSLA'],
      note: 'Demo: the compliance committee allowed this one purchase',
    },
  },
  /** Income Plus's execution whose answer the sandbox loses (it commits all the same). */
  lostExecution: {
    strategyId: BOOK.incomePlus,
    draftName: 'More SCHD',
    rows: [
      { symbol: 'JNJ', weight: '10' },
      { symbol: 'PG', weight: '10' },
      { symbol: 'KO', weight: '12' },
      { symbol: 'PEP', weight: '10' },
      { symbol: 'VYM', weight: '15' },
      { symbol: 'SCHD', weight: '30' },
    ],
  },
  /** The sandbox's documented fault: the next execution commits, then its connection drops. */
  async loseNextAnswer(baseUrl: string): Promise<void> {
    await admin(baseUrl, 'PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
  },
  /** The strategies whose snapshot the demo takes before the outside events. */
  snapshots: [DEMO_STRATEGY_IDS.coreEquity, DEMO_STRATEGY_IDS.dividendGrowth],
  /** The trades outside the app and the split, through the sandbox's admin routes. */
  async outsideEvents(baseUrl: string): Promise<void> {
    for (const e of OUTSIDE_EVENTS)
      await admin(baseUrl, 'POST', `/sandbox/strategies/${e.strategyId}/${e.route}`, e.body);
    await sellWhole(baseUrl, DEMO_STRATEGY_IDS.coreEquity, 'JPM');
  },
  /** Due from the day the profile is made: a schedule on that date. */
  dueOnStart: [BOOK.bondLadder],
} as const;
