import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEMO_BOOK_STRATEGY_IDS as BOOK,
  DEMO_BOOK_VERSION_IDS as BOOK_VERSIONS,
} from '../../../electron/sandbox/demo-book';
import { DEMO_STRATEGY_IDS as IDS } from '../../../electron/sandbox/demo-data';
import { HALTED_INCOME } from '../../../electron/sandbox/demo-model';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { admin, call, tokenFor, versionPath } from '../../support/sandbox-http';

let sandbox: RunningSandbox;
let url: string;
let manager: string;
let other: string;

beforeAll(async () => {
  sandbox = await startSandbox({ stepMs: 0 });
  url = sandbox.baseUrl;
  manager = await tokenFor(url, 'manager');
  other = await tokenFor(url, 'otherManager');
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  expect((await admin(url, 'POST', '/sandbox/reset')).status).toBe(204);
});

type Strategy = {
  name: string;
  is_liquidate_only: boolean;
  liquidate_only_reason: string | null;
  updated_at: string;
  positions: { symbol: string; quantity: string }[];
};

async function strategy(id: string, token = manager): Promise<Strategy> {
  const answer = await call(url, 'GET', `/api/v1/strategies/${id}?include=positions`, { token });
  expect(answer.status).toBe(200);
  return answer.json.data as Strategy;
}

async function version(strategyId: string, versionId: string) {
  const answer = await call(url, 'GET', versionPath(strategyId, versionId, 'orders,positions'), {
    token: manager,
  });
  expect(answer.status).toBe(200);
  return answer.json.data as {
    status: string | null;
    executed_at: string | null;
    orders: { symbol: string; status: string; updated_at: string }[];
    positions: { symbol: string; weight: string }[];
  };
}

const held = (s: Strategy) => s.positions.map((p) => p.symbol).sort();

describe('the demo book of Demo Capital', () => {
  it('holds a strategy in every state the book flags, under the documented ids', async () => {
    const income = await version(BOOK.incomePlus, BOOK_VERSIONS.incomePlusExecuted);
    expect(income.status).toBe('COMPLETE');
    expect(income.orders.filter((o) => o.status === 'IGNORED').map((o) => o.symbol)).toEqual([
      'BND',
    ]);

    const failed = await version(BOOK.smallCapGrowth, BOOK_VERSIONS.smallCapGrowthFailed);
    expect(failed.status).toBe('FAILED');
    expect(await strategy(BOOK.smallCapGrowth)).toMatchObject({
      is_liquidate_only: true,
      liquidate_only_reason: 'ORDER_FAILED',
    });

    expect(await strategy(BOOK.legacyBalanced)).toMatchObject({
      is_liquidate_only: true,
      liquidate_only_reason: 'CLIENT_REQUEST',
    });

    const scheduled = await version(BOOK.techLeaders, BOOK_VERSIONS.techLeadersScheduled);
    expect(scheduled).toMatchObject({ status: 'SCHEDULED', executed_at: null });

    // Global Growth holds TSLA, which the version a manager knows never targeted: a newer one,
    // executed elsewhere, bought it.
    const known = await version(BOOK.globalGrowth, BOOK_VERSIONS.globalGrowthKnown);
    expect(known.positions.map((p) => p.symbol)).not.toContain('TSLA');
    const global = await strategy(BOOK.globalGrowth);
    expect(held(global)).toContain('TSLA');
    expect(
      global.updated_at >
        known.orders
          .map((o) => o.updated_at)
          .sort()
          .at(-1)!,
    ).toBe(true);

    for (const id of [BOOK.bondLadder, BOOK.balancedRetirement, BOOK.balancedGrowth])
      expect((await strategy(id)).positions.length).toBeGreaterThan(0);
  });

  it('holds HALTED in Halted Income, bought before the halt: its version COMPLETE, not liquidate-only', async () => {
    const halted = await version(HALTED_INCOME.strategyId, HALTED_INCOME.executedVersionId);
    expect(halted.status).toBe('COMPLETE');
    expect(halted.orders.map((o) => `${o.symbol} ${o.status}`).sort()).toEqual([
      'AGG FILLED',
      'BND FILLED',
      'HALTED FILLED',
    ]);
    const s = await strategy(HALTED_INCOME.strategyId);
    expect(s).toMatchObject({ is_liquidate_only: false, liquidate_only_reason: null });
    expect(held(s)).toEqual(['AGG', 'BND', 'HALTED']);
  });

  it('keeps the first demo strategies as they were, and the book is Demo Capital’s alone', async () => {
    const list = await admin(url, 'GET', '/sandbox/strategies');
    const names = new Map(
      list.json.data.map((s: { id: string; name: string; organization: string }) => [
        s.id,
        `${s.organization}: ${s.name}`,
      ]),
    );
    expect(names.get(IDS.coreEquity)).toBe('Demo Capital: Core Equity');
    expect(names.get(IDS.otherFund)).toBe('Other Advisors: Other Fund');
    for (const id of Object.values(BOOK)) expect(names.get(id)).toMatch(/^Demo Capital: /);
    const answer = await call(url, 'GET', `/api/v1/strategies/${BOOK.techLeaders}`, {
      token: other,
    });
    expect(answer.status).toBe(404);
  });
});

describe('POST /sandbox/strategies', () => {
  it('creates N strategies with holdings, readable at once', async () => {
    const answer = await admin(url, 'POST', '/sandbox/strategies', { count: 25, holdings: 5 });
    expect(answer.status).toBe(201);
    const ids = answer.json.data.ids as string[];
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);
    const first = await strategy(ids[0]!);
    expect(first.name).toBe('Bulk strategy 01');
    expect(first.positions).toHaveLength(5);
    for (const p of first.positions) expect(p.quantity).toMatch(/^\d+\.\d{6}$/);
    const last = await strategy(ids[24]!);
    expect(held(last)).not.toEqual(held(first));
  });

  it('gives each an executed COMPLETE version whose fills are its holdings, when asked', async () => {
    const answer = await admin(url, 'POST', '/sandbox/strategies', {
      count: 3,
      holdings: 4,
      executed_version: true,
      name_prefix: 'Model follower',
    });
    const { ids, executed_version_ids } = answer.json.data as {
      ids: string[];
      executed_version_ids: string[];
    };
    const executed = await version(ids[1]!, executed_version_ids[1]!);
    expect(executed.status).toBe('COMPLETE');
    const s = await strategy(ids[1]!);
    expect(s.name).toBe('Model follower 2');
    expect(held(s)).toEqual(executed.positions.map((p) => p.symbol).sort());
  });

  it('refuses more than 10,000 and a count that is no count, with a 400 naming it', async () => {
    for (const count of [0, 10_001, 'ten']) {
      const answer = await admin(url, 'POST', '/sandbox/strategies', { count });
      expect(answer.status).toBe(400);
      expect(answer.json.errors.detail).toMatch(/count/);
    }
  });
});

describe('the fail_strategies fault', () => {
  it('fails every request naming those strategies, and only those, until cleared', async () => {
    await admin(url, 'PUT', '/sandbox/faults', {
      fail_strategies: [BOOK.bondLadder.toUpperCase()],
      fail_status: 500,
    });
    const failing = await call(url, 'GET', `/api/v1/strategies/${BOOK.bondLadder}`, {
      token: manager,
    });
    expect(failing.status).toBe(500);
    expect(
      (await call(url, 'GET', `/api/v1/strategies/${BOOK.bondLadder}`, { token: manager })).status,
    ).toBe(500);
    expect(
      (await call(url, 'GET', `/api/v1/strategies/${IDS.coreEquity}`, { token: manager })).status,
    ).toBe(200);
    await admin(url, 'DELETE', '/sandbox/faults');
    expect(
      (await call(url, 'GET', `/api/v1/strategies/${BOOK.bondLadder}`, { token: manager })).status,
    ).toBe(200);
  });
});
