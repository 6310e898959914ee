import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { version as versionSchema, type Order } from '../../../shared/domain/resources';
import {
  DEMO_STRATEGY_IDS as IDS,
  DEMO_VERSION_IDS as VIDS,
} from '../../../electron/sandbox/demo-data';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { PRICES } from '../../../electron/sandbox/prices';
import { Decimal } from '../../../shared/decimal';
import {
  admin,
  call,
  executePath,
  MICRO_TIMESTAMP,
  target,
  tokenFor,
  UUID,
  waitForEnd,
} from '../../support/sandbox-http';

let sandbox: RunningSandbox;
let url: string;
let manager: string;

beforeAll(async () => {
  sandbox = await startSandbox({ stepMs: 0 });
  url = sandbox.baseUrl;
  manager = await tokenFor(url, 'manager');
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  expect((await admin(url, 'POST', '/sandbox/reset')).status).toBe(204);
});

async function holdingsOf(id: string) {
  const answer = await call(url, 'GET', `/api/v1/strategies/${id}?include=positions`, {
    token: manager,
  });
  return answer.json.data as {
    is_liquidate_only: boolean;
    liquidate_only_reason: string | null;
    positions: { symbol: string; quantity: string }[];
  };
}

async function cashOf(id: string): Promise<string> {
  const list = await admin(url, 'GET', '/sandbox/strategies');
  return list.json.data.find((s: { id: string }) => s.id === id).cash;
}

describe('execute', () => {
  it('runs Core Equity from PENDING to COMPLETE: sells first, 6 dp, fills, holdings and cash updated', async () => {
    const before = await holdingsOf(IDS.coreEquity);
    const cashBefore = new Decimal(await cashOf(IDS.coreEquity));
    // AAPL up, MSFT down, NVDA unchanged, new XOM, the rest of the previous target left out (REMOVE).
    const body = target(['AAPL', '30.5'], ['MSFT', '5'], ['NVDA', '10'], ['XOM', '12.25']);
    const answer = await call(url, 'POST', executePath(IDS.coreEquity), { token: manager, body });
    expect(answer.status).toBe(202);
    const v = versionSchema.parse(answer.json.data);
    expect(answer.headers.location).toBe(
      `/api/v1/strategies/${IDS.coreEquity}/versions/${v.id}?include=orders,positions`,
    );
    expect(v).toMatchObject({
      status: 'PENDING',
      scheduled_for: null,
      cash_weight: '42.25',
      old_cash_weight: '12',
    });
    expect(v.id).toMatch(UUID);
    expect(v.executed_at).toMatch(MICRO_TIMESTAMP);
    const actions = Object.fromEntries(
      v.positions!.map((p) => [p.symbol, [p.old_weight, p.weight, p.action]]),
    );
    expect(actions).toEqual({
      AAPL: ['15', '30.5', 'CHANGE'],
      MSFT: ['15', '5', 'CHANGE'],
      NVDA: ['10', '10', 'IGNORE'],
      XOM: ['0', '12.25', 'ADD'],
      AMZN: ['10', '0', 'REMOVE'],
      'BRK.B': ['10', '0', 'REMOVE'],
      JPM: ['8', '0', 'REMOVE'],
      SPY: ['20', '0', 'REMOVE'],
    });
    const orders = v.orders!;
    for (const o of orders) {
      expect(o).toMatchObject({
        status: 'PENDING',
        filled_quantity: null,
        filled_value: null,
        filled_average_price: null,
      });
      expect(o.order_quantity).toMatch(/^\d+(\.\d{1,6})?$/);
    }
    const sides = orders.map((o) => o.side);
    expect(sides.indexOf('BUY')).toBeGreaterThan(sides.lastIndexOf('SELL'));
    const bySymbol = new Map(orders.map((o) => [o.symbol, o]));
    expect(bySymbol.get('AAPL')!.side).toBe('BUY');
    expect(bySymbol.get('XOM')!.side).toBe('BUY');
    expect(bySymbol.get('MSFT')!.side).toBe('SELL');
    const heldBefore = new Map(before.positions.map((h) => [h.symbol, h.quantity]));
    // Leaving the target sells the whole holding.
    for (const s of ['AMZN', 'BRK.B', 'JPM', 'SPY'])
      expect(bySymbol.get(s)!.order_quantity).toBe(heldBefore.get(s));

    const done = await waitForEnd(url, manager, answer.headers.location as string);
    const end = versionSchema.parse(done.json.data);
    expect(end.status).toBe('COMPLETE');
    let cash = cashBefore;
    for (const o of end.orders!) {
      expect(o.status).toBe('FILLED');
      expect(o.filled_quantity).toBe(o.order_quantity);
      expect(o.filled_average_price).toBe(PRICES[o.symbol]);
      const value = new Decimal(o.order_quantity).times(PRICES[o.symbol]!).toDecimalPlaces(2);
      expect(new Decimal(o.filled_value!).eq(value)).toBe(true);
      cash = o.side === 'BUY' ? cash.minus(o.filled_value!) : cash.plus(o.filled_value!);
    }
    const after = await holdingsOf(IDS.coreEquity);
    expect(after.positions.map((h) => h.symbol).sort()).toEqual(['AAPL', 'MSFT', 'NVDA', 'XOM']);
    const aapl = after.positions.find((h) => h.symbol === 'AAPL')!;
    expect(
      new Decimal(aapl.quantity).eq(
        new Decimal(heldBefore.get('AAPL')!).plus(bySymbol.get('AAPL')!.order_quantity),
      ),
    ).toBe(true);
    expect(new Decimal(await cashOf(IDS.coreEquity)).eq(cash)).toBe(true);
  });

  it('walks through every status, one step per step time', async () => {
    await admin(url, 'PUT', '/sandbox/timing', { step_ms: 60 });
    const answer = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['SPY', '50']),
    });
    const seen: string[] = [];
    const orderStatuses = new Set<string>();
    for (let i = 0; i < 200 && seen.at(-1) !== 'COMPLETE'; i++) {
      const v = await call(url, 'GET', answer.headers.location as string, { token: manager });
      if (seen.at(-1) !== v.json.data.status) seen.push(v.json.data.status);
      for (const o of v.json.data.orders) orderStatuses.add(`${v.json.data.status}:${o.status}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(seen).toEqual(['PENDING', 'CREATING_ORDERS', 'IN_PROGRESS', 'COMPLETE']);
    expect(orderStatuses).toContain('IN_PROGRESS:SENT');
    expect(orderStatuses).toContain('COMPLETE:FILLED');
  });

  it('fails a HALTED order: version FAILED, strategy liquidate-only ORDER_FAILED, other orders filled', async () => {
    const body = target(['HALTED', '5'], ['AAPL', '20']);
    const answer = await call(url, 'POST', executePath(IDS.freshStart), { token: manager, body });
    expect(answer.status).toBe(202);
    const end = await waitForEnd(url, manager, answer.headers.location as string);
    expect(end.json.data.status).toBe('FAILED');
    const orders = end.json.data.orders as Order[];
    expect(orders.find((o) => o.symbol === 'HALTED')).toMatchObject({
      status: 'FAILED',
      filled_quantity: '0',
      filled_value: '0',
      filled_average_price: null,
      status_reason: expect.stringMatching(/halted/),
    });
    expect(orders.find((o) => o.symbol === 'AAPL')!.status).toBe('FILLED');
    const s = await holdingsOf(IDS.freshStart);
    expect(s).toMatchObject({ is_liquidate_only: true, liquidate_only_reason: 'ORDER_FAILED' });
    expect(s.positions.map((h) => h.symbol)).toEqual(['AAPL']);

    // Liquidate-only: raising any weight is refused, lowering is accepted.
    const raise = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['HALTED', '0'], ['AAPL', '20.5']),
    });
    expect(raise.status).toBe(422);
    expect(raise.json.errors.detail).toMatch(/liquidate-only/);
    const added = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['HALTED', '0'], ['AAPL', '10'], ['MSFT', '1']),
    });
    expect(added.status).toBe(422);
    const lower = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['HALTED', '0'], ['AAPL', '10']),
    });
    expect(lower.status).toBe(202);
    expect(lower.json.data.old_cash_weight).toBe('75');
  });

  it('turns an order under 1.00 into IGNORED with a reason when orders are sent', async () => {
    // 0.0002 % of Fresh Start's 250000.00 is 0.50.
    const answer = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['AAPL', '0.0002'], ['MSFT', '10']),
    });
    const aapl = (answer.json.data.orders as Order[]).find((o) => o.symbol === 'AAPL')!;
    expect(aapl.status).toBe('PENDING');
    expect(new Decimal(aapl.order_value).lt(1)).toBe(true);
    const end = await waitForEnd(url, manager, answer.headers.location as string);
    expect(end.json.data.status).toBe('COMPLETE');
    expect((end.json.data.orders as Order[]).find((o) => o.symbol === 'AAPL')).toMatchObject({
      status: 'IGNORED',
      status_reason: expect.stringMatching(/below the minimum of 1\.00/),
      filled_quantity: '0',
      filled_value: '0',
      filled_average_price: null,
    });
    expect((await holdingsOf(IDS.freshStart)).positions.map((h) => h.symbol)).toEqual(['MSFT']);
  });

  it('computes cash_weight exactly: 100 minus the sum', async () => {
    const answer = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['AAPL', '0.1'], ['MSFT', '0.2'], ['SPY', '97.7']),
    });
    expect(answer.json.data.cash_weight).toBe('2');
  });

  it('answers 422 with version_id while a rebalance has not ended, before liquidate-only', async () => {
    const failed = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['HALTED', '5'], ['SPY', '20']),
    });
    await waitForEnd(url, manager, failed.headers.location as string);
    await admin(url, 'PUT', '/sandbox/timing', { step_ms: 60_000 });
    const first = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['HALTED', '0'], ['SPY', '10']),
    });
    expect(first.status).toBe(202);
    // An increase on a liquidate-only strategy, while the rebalance runs: "not ended" wins.
    const second = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['SPY', '20']),
    });
    expect(second.status).toBe(422);
    expect(second.json.errors).toEqual({
      detail: expect.stringMatching(/not ended/),
      version_id: first.json.data.id,
    });
    // The unexecuted version comes before the running rebalance.
    const created = await admin(
      url,
      'POST',
      `/sandbox/strategies/${IDS.freshStart}/unexecuted-versions`,
      {},
    );
    const third = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['SPY', '20']),
    });
    expect(third.json.errors.version_id).toBe(created.json.data.id);
  });
});

describe('Idempotency-Key', () => {
  const body = target(['SPY', '40'], ['AGG', '10']);

  it('replays the first 202 byte for byte, with its Location, and counts one execution', async () => {
    const headers = { 'idempotency-key': 'key-1' };
    const first = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body,
      headers,
    });
    expect(first.status).toBe(202);
    await waitForEnd(url, manager, first.headers.location as string);
    // Same body with keys in another order and other spacing is the same body.
    const reordered = JSON.stringify(
      {
        data: {
          positions: body.data.positions.map((p) => ({ weight: p.weight, symbol: p.symbol })),
        },
      },
      null,
      2,
    );
    const replay = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: reordered,
      headers: { ...headers, 'content-type': 'application/json' },
    });
    expect(replay.status).toBe(202);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.location).toBe(first.headers.location);
    const counters = await admin(url, 'GET', '/sandbox/counters');
    expect(counters.json.data.executions_accepted[IDS.freshStart]).toBe(1);
  });

  it('answers 422 for the same key with a different body or strategy; the key is scoped to the client', async () => {
    const headers = { 'idempotency-key': 'key-2' };
    expect(
      (await call(url, 'POST', executePath(IDS.freshStart), { token: manager, body, headers }))
        .status,
    ).toBe(202);
    const other = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['SPY', '41']),
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.json.errors.idempotency_key).toBeDefined();
    const elsewhere = await call(url, 'POST', executePath(IDS.coreEquity), {
      token: manager,
      body,
      headers,
    });
    expect(elsewhere.status).toBe(422);
    const otherClient = await tokenFor(url, 'otherManager');
    const scoped = await call(url, 'POST', executePath(IDS.otherFund), {
      token: otherClient,
      body,
      headers,
    });
    expect(scoped.status).toBe(202);
  });

  it('remembers only 202s: a refused request can be sent again with the same key', async () => {
    const headers = { 'idempotency-key': 'key-3' };
    const refused = await call(url, 'POST', executePath(IDS.dividendGrowth), {
      token: manager,
      body,
      headers,
    });
    expect(refused.status).toBe(422);
    await call(
      url,
      'DELETE',
      `/api/v1/strategies/${IDS.dividendGrowth}/versions/${VIDS.dividendGrowthScheduled}`,
      {
        token: manager,
      },
    );
    const accepted = await call(url, 'POST', executePath(IDS.dividendGrowth), {
      token: manager,
      body,
      headers,
    });
    expect(accepted.status).toBe(202);
  });

  it('answers 400 for an Idempotency-Key that is empty or too long', async () => {
    for (const key of ['', 'k'.repeat(256), 'has space']) {
      const answer = await call(url, 'POST', executePath(IDS.freshStart), {
        token: manager,
        body,
        headers: { 'idempotency-key': key },
      });
      expect(answer.status, JSON.stringify(key)).toBe(400);
      expect(answer.json.errors.idempotency_key).toBeDefined();
    }
  });
});
