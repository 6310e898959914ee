import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  strategy as strategySchema,
  version as versionSchema,
} from '../../../shared/domain/resources';
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
  versionPath,
} from '../../support/sandbox-http';

let sandbox: RunningSandbox;
let url: string;
let manager: string;
let otherManager: string;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  sandbox = await startSandbox({ stepMs: 0 });
  url = sandbox.baseUrl;
  manager = await tokenFor(url, 'manager');
  otherManager = await tokenFor(url, 'otherManager');
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  expect((await admin(url, 'POST', '/sandbox/reset')).status).toBe(204);
});

describe('GET /api/v1/strategies/{id}', () => {
  it('returns the strategy, with holdings only when include=positions', async () => {
    const plain = await call(url, 'GET', `/api/v1/strategies/${IDS.coreEquity}`, {
      token: manager,
    });
    expect(plain.status).toBe(200);
    const data = strategySchema.parse(plain.json.data);
    expect(data).toMatchObject({
      id: IDS.coreEquity,
      name: 'Core Equity',
      is_liquidate_only: false,
    });
    expect(data.positions).toBeUndefined();
    expect(data.inserted_at).toMatch(MICRO_TIMESTAMP);
    const full = await call(url, 'GET', `/api/v1/strategies/${IDS.coreEquity}?include=positions`, {
      token: manager,
    });
    const holdings = strategySchema.parse(full.json.data).positions!;
    expect(holdings.map((h) => h.symbol).sort()).toEqual([
      'AAPL',
      'AMZN',
      'BRK.B',
      'JPM',
      'MSFT',
      'NVDA',
      'SPY',
    ]);
  });

  it('has demo holdings that match the current target at current prices', async () => {
    for (const id of [IDS.coreEquity, IDS.dividendGrowth]) {
      const s = await call(url, 'GET', `/api/v1/strategies/${id}?include=positions`, {
        token: manager,
      });
      const list = await admin(url, 'GET', '/sandbox/strategies');
      const row = list.json.data.find((r: { id: string }) => r.id === id);
      const executed = await call(
        url,
        'GET',
        versionPath(id, row.latest_executed_version_id, 'positions'),
        {
          token: manager,
        },
      );
      expect(executed.json.data.status).toBe('COMPLETE');
      const values = new Map<string, Decimal>(
        s.json.data.positions.map((h: { symbol: string; quantity: string }) => [
          h.symbol,
          new Decimal(h.quantity).times(PRICES[h.symbol]!),
        ]),
      );
      const total = [...values.values()].reduce((a, b) => a.plus(b), new Decimal(row.cash));
      for (const p of executed.json.data.positions) {
        const weight = (values.get(p.symbol) ?? new Decimal(0)).div(total).times(100);
        expect(weight.minus(p.weight).abs().lt(0.01), p.symbol).toBe(true);
      }
    }
  });

  it.each([['orders'], ['positions,orders'], ['bogus']])(
    'answers 400 for include=%s',
    async (include) => {
      const answer = await call(
        url,
        'GET',
        `/api/v1/strategies/${IDS.coreEquity}?include=${include}`,
        {
          token: manager,
        },
      );
      expect(answer.status).toBe(400);
      expect(answer.json.errors.detail).toMatch(/include/);
    },
  );

  it('answers 400 for a strategy id that is not a UUID', async () => {
    for (const id of ['core-equity', 'x'.repeat(500), `${IDS.coreEquity}0`]) {
      const answer = await call(url, 'GET', `/api/v1/strategies/${id}`, { token: manager });
      expect(answer.status).toBe(400);
      expect(answer.json.errors).toMatchObject({ strategy_id: ['is not a UUID'] });
    }
  });

  it('answers 404 for an unknown strategy and for one of another organization', async () => {
    for (const id of [MISSING, IDS.otherFund]) {
      const answer = await call(url, 'GET', `/api/v1/strategies/${id}`, { token: manager });
      expect(answer.status).toBe(404);
      expect(answer.json.errors.detail).toEqual(expect.any(String));
    }
    const own = await call(url, 'GET', `/api/v1/strategies/${IDS.otherFund}`, {
      token: otherManager,
    });
    expect(own.status).toBe(200);
    const foreign = await call(url, 'GET', `/api/v1/strategies/${IDS.coreEquity}`, {
      token: otherManager,
    });
    expect(foreign.status).toBe(404);
  });
});

describe('GET /api/v1/strategies/{sid}/versions/{id}', () => {
  it('returns the version with orders and positions only when asked', async () => {
    const bare = await call(url, 'GET', versionPath(IDS.coreEquity, VIDS.coreEquityExecuted), {
      token: manager,
    });
    expect(bare.status).toBe(200);
    const v = versionSchema.parse(bare.json.data);
    expect(v).toMatchObject({
      status: 'COMPLETE',
      cash_weight: '12',
      old_cash_weight: '100',
      scheduled_for: null,
    });
    expect(v.orders).toBeUndefined();
    expect(v.positions).toBeUndefined();
    expect(v.executed_at).toMatch(MICRO_TIMESTAMP);
    for (const include of ['orders,positions', 'positions,orders', 'orders', 'positions']) {
      const answer = await call(
        url,
        'GET',
        versionPath(IDS.coreEquity, VIDS.coreEquityExecuted, include),
        {
          token: manager,
        },
      );
      const data = versionSchema.parse(answer.json.data);
      expect(data.orders !== undefined).toBe(include.includes('orders'));
      expect(data.positions !== undefined).toBe(include.includes('positions'));
    }
  });

  it('shows the demo SCHEDULED version 30 days ahead, unexecuted, with its changes', async () => {
    const answer = await call(
      url,
      'GET',
      versionPath(IDS.dividendGrowth, VIDS.dividendGrowthScheduled, 'orders,positions'),
      { token: manager },
    );
    const v = versionSchema.parse(answer.json.data);
    expect(v.status).toBe('SCHEDULED');
    expect(v.executed_at).toBeNull();
    const days = (Date.parse(v.scheduled_for!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    expect(v.orders).toEqual([]);
    const actions = Object.fromEntries(v.positions!.map((p) => [p.symbol, p.action]));
    expect(actions).toMatchObject({
      JNJ: 'CHANGE',
      KO: 'CHANGE',
      XOM: 'REMOVE',
      CVX: 'ADD',
      PG: 'IGNORE',
    });
  });

  it('answers 400 for an unknown include value and for ids that are not UUIDs', async () => {
    const include = await call(
      url,
      'GET',
      versionPath(IDS.coreEquity, VIDS.coreEquityExecuted, 'orders,fills'),
      {
        token: manager,
      },
    );
    expect(include.status).toBe(400);
    expect(include.json.errors.include).toBeDefined();
    const badVersion = await call(url, 'GET', versionPath(IDS.coreEquity, 'latest'), {
      token: manager,
    });
    expect(badVersion.status).toBe(400);
    expect(badVersion.json.errors.id).toEqual(['is not a UUID']);
  });

  it('answers 404 for an unknown version, a version of another strategy and another organization', async () => {
    const cases: [string, string, string][] = [
      [IDS.coreEquity, MISSING, manager],
      [IDS.coreEquity, VIDS.dividendGrowthExecuted, manager],
      [IDS.otherFund, VIDS.otherFundExecuted, manager],
      [IDS.coreEquity, VIDS.coreEquityExecuted, otherManager],
    ];
    for (const [sid, vid, token] of cases) {
      const answer = await call(url, 'GET', versionPath(sid, vid), { token });
      expect(answer.status, `${sid}/${vid}`).toBe(404);
      expect(answer.json.errors.detail).toEqual(expect.any(String));
    }
  });
});

describe('DELETE /api/v1/strategies/{sid}/versions/{id}', () => {
  it('deletes an unexecuted version with 204 and an empty body; then it is gone', async () => {
    const path = versionPath(IDS.dividendGrowth, VIDS.dividendGrowthScheduled);
    const answer = await call(url, 'DELETE', path, { token: manager });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect((await call(url, 'GET', path, { token: manager })).status).toBe(404);
    expect((await call(url, 'DELETE', path, { token: manager })).status).toBe(404);
  });

  it('answers 422 for an executed version', async () => {
    const answer = await call(url, 'DELETE', versionPath(IDS.coreEquity, VIDS.coreEquityExecuted), {
      token: manager,
    });
    expect(answer.status).toBe(422);
    expect(answer.json.errors.detail).toMatch(/executed/);
    expect(answer.json.errors.version_id).toBe(VIDS.coreEquityExecuted);
  });

  it('answers 404 for another organization, another strategy, or an unknown version; 400 for bad ids', async () => {
    const scheduled = VIDS.dividendGrowthScheduled;
    expect(
      (
        await call(url, 'DELETE', versionPath(IDS.dividendGrowth, scheduled), {
          token: otherManager,
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(url, 'DELETE', versionPath(IDS.coreEquity, scheduled), { token: manager }))
        .status,
    ).toBe(404);
    expect(
      (await call(url, 'DELETE', versionPath(IDS.coreEquity, MISSING), { token: manager })).status,
    ).toBe(404);
    expect(
      (await call(url, 'DELETE', versionPath('x', scheduled), { token: manager })).status,
    ).toBe(400);
    expect(
      (await call(url, 'DELETE', versionPath(IDS.dividendGrowth, 'y'), { token: manager })).status,
    ).toBe(400);
  });
});

describe('error precedence: 401, 403, 400, 404, 422', () => {
  const bad = '{not json';
  const json = { 'content-type': 'application/json' };

  it('401 beats everything', async () => {
    const answer = await call(url, 'POST', executePath('not-a-uuid'), { body: bad, headers: json });
    expect(answer.status).toBe(401);
  });

  it('403 beats 400 and 404', async () => {
    const viewer = await tokenFor(url, 'viewer');
    const answer = await call(url, 'POST', executePath('not-a-uuid'), {
      token: viewer,
      body: bad,
      headers: json,
    });
    expect(answer.status).toBe(403);
  });

  it("400 beats 404: a bad body on another organization's strategy", async () => {
    const answer = await call(url, 'POST', executePath(IDS.otherFund), {
      token: manager,
      body: bad,
      headers: json,
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors.detail).toMatch(/not valid JSON/);
    const include = await call(url, 'GET', `/api/v1/strategies/${MISSING}?include=x`, {
      token: manager,
    });
    expect(include.status).toBe(400);
  });

  it('404 beats 422: an invalid target on an unknown strategy', async () => {
    const answer = await call(url, 'POST', executePath(MISSING), {
      token: manager,
      body: target(['ZZZ', '200']),
    });
    expect(answer.status).toBe(404);
  });

  it('among 422s: shape and weights, then unknown symbols, then the unexecuted version, then the running rebalance, then liquidate-only', async () => {
    // Dividend Growth has an unexecuted version; make it liquidate-only with a running rebalance too.
    const dg = IDS.dividendGrowth;
    const shape = await call(url, 'POST', executePath(dg), {
      token: manager,
      body: target(['NOPE', '99']),
    });
    expect(shape.status).toBe(422);
    expect(shape.json.errors.positions).toBeDefined();
    const unknown = await call(url, 'POST', executePath(dg), {
      token: manager,
      body: target(['NOPE', '9']),
    });
    expect(unknown.json.errors).toMatchObject({ symbols: ['NOPE'] });
    const unexecuted = await call(url, 'POST', executePath(dg), {
      token: manager,
      body: target(['JNJ', '50']),
    });
    expect(unexecuted.status).toBe(422);
    expect(unexecuted.json.errors.version_id).toBe(VIDS.dividendGrowthScheduled);
    expect(typeof unexecuted.json.errors.version_id).toBe('string');
  });
});
