import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../shared/decimal';
import { strategy as strategySchema } from '../../../shared/domain/resources';
import { DEMO_STRATEGY_IDS as IDS } from '../../../electron/sandbox/demo-data';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { priceOf } from '../../../electron/sandbox/prices';
import { admin, call, tokenFor } from '../../support/sandbox-http';

// A trade made outside any version and a split: the holdings the service reports change, and
// no version or order is written (the desk's attention queue compares quantities with them).

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

async function holdingsOf(id: string): Promise<Map<string, string>> {
  const answer = await call(url, 'GET', `/api/v1/strategies/${id}?include=positions`, {
    token: manager,
  });
  const data = strategySchema.parse(answer.json.data);
  return new Map(data.positions!.map((h) => [h.symbol, h.quantity]));
}
async function cashOf(id: string): Promise<string> {
  const listed = await admin(url, 'GET', '/sandbox/strategies');
  return (listed.json.data as { id: string; cash: string }[]).find((s) => s.id === id)!.cash;
}
async function latestVersionOf(id: string): Promise<string | null> {
  const listed = await admin(url, 'GET', '/sandbox/strategies');
  return (listed.json.data as { id: string; latest_version_id: string | null }[]).find(
    (s) => s.id === id,
  )!.latest_version_id;
}

const trade = (id: string, body: unknown) =>
  admin(url, 'POST', `/sandbox/strategies/${id}/outside-trades`, body);
const split = (id: string, body: unknown) =>
  admin(url, 'POST', `/sandbox/strategies/${id}/splits`, body);

describe('a trade outside the app', () => {
  it('sells at the listed price: fewer shares, more cash, no version', async () => {
    const before = await holdingsOf(IDS.coreEquity);
    const cashBefore = await cashOf(IDS.coreEquity);
    const latest = await latestVersionOf(IDS.coreEquity);
    const answer = await trade(IDS.coreEquity, { symbol: 'AAPL', side: 'SELL', quantity: '1.5' });
    expect(answer.status).toBe(201);
    const after = await holdingsOf(IDS.coreEquity);
    expect(after.get('AAPL')).toBe(new Decimal(before.get('AAPL')!).minus('1.5').toFixed());
    const proceeds = new Decimal(priceOf('AAPL')).times('1.5').toDecimalPlaces(2);
    expect(new Decimal(await cashOf(IDS.coreEquity)).minus(cashBefore).eq(proceeds)).toBe(true);
    expect(await latestVersionOf(IDS.coreEquity)).toBe(latest);
  });

  it('buys a symbol not held, and selling all of one removes it', async () => {
    const before = await holdingsOf(IDS.coreEquity);
    expect(before.has('TLT')).toBe(false);
    expect(
      (await trade(IDS.coreEquity, { symbol: 'TLT', side: 'BUY', quantity: '2' })).status,
    ).toBe(201);
    const sellAll = { symbol: 'MSFT', side: 'SELL', quantity: before.get('MSFT') };
    expect((await trade(IDS.coreEquity, sellAll)).status).toBe(201);
    const after = await holdingsOf(IDS.coreEquity);
    expect(after.get('TLT')).toBe('2');
    expect(after.has('MSFT')).toBe(false);
  });

  it('refuses in words what could not happen, and changes nothing', async () => {
    const before = await holdingsOf(IDS.coreEquity);
    const oversell = await trade(IDS.coreEquity, {
      symbol: 'AAPL',
      side: 'SELL',
      quantity: '1000000',
    });
    expect(oversell.status).toBe(409);
    expect(oversell.json.errors.detail).toMatch(/fewer than 1000000 to sell/);
    const tooDear = await trade(IDS.coreEquity, {
      symbol: 'SPY',
      side: 'BUY',
      quantity: '1000000000',
    });
    expect(tooDear.status).toBe(409);
    expect(tooDear.json.errors.detail).toMatch(/less than the .* this buy costs/);
    const unknown = await trade(IDS.coreEquity, { symbol: 'NOPE', side: 'BUY', quantity: '1' });
    expect(unknown.status).toBe(409);
    expect(unknown.json.errors.detail).toMatch(/NOPE is not a recognized symbol/);
    expect(await holdingsOf(IDS.coreEquity)).toEqual(before);
  });

  it.each([
    [{ symbol: 'AAPL', side: 'SELL', quantity: '0' }, /quantity must be more than 0/],
    [{ symbol: 'AAPL', side: 'SELL', quantity: '-1' }, /quantity must be a plain decimal/],
    [
      { symbol: 'AAPL', side: 'SELL', quantity: 1 },
      /quantity must be a decimal number written as text/,
    ],
    [{ symbol: 'AAPL', side: 'HOLD', quantity: '1' }, /side/],
    [{ symbol: 'AAPL', side: 'SELL', quantity: '1', extra: true }, /extra/],
  ])('answers 400 naming what is wrong in %j', async (body, words) => {
    const answer = await trade(IDS.coreEquity, body);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.json.errors)).toMatch(words);
  });

  it('answers 404 for a strategy that does not exist and 403 without the admin header', async () => {
    const missing = await trade('00000000-0000-4000-8000-000000000000', {
      symbol: 'AAPL',
      side: 'SELL',
      quantity: '1',
    });
    expect(missing.status).toBe(404);
    const unguarded = await call(
      url,
      'POST',
      `/sandbox/strategies/${IDS.coreEquity}/outside-trades`,
      {
        body: { symbol: 'AAPL', side: 'SELL', quantity: '1' },
      },
    );
    expect(unguarded.status).toBe(403);
  });
});

describe('a split', () => {
  it('multiplies the quantity held and leaves cash and the rest alone', async () => {
    const before = await holdingsOf(IDS.coreEquity);
    const cashBefore = await cashOf(IDS.coreEquity);
    expect((await split(IDS.coreEquity, { symbol: 'NVDA', ratio: '4' })).status).toBe(201);
    const after = await holdingsOf(IDS.coreEquity);
    expect(after.get('NVDA')).toBe(new Decimal(before.get('NVDA')!).times(4).toFixed());
    for (const [symbol, quantity] of before)
      if (symbol !== 'NVDA') expect(after.get(symbol)).toBe(quantity);
    expect(await cashOf(IDS.coreEquity)).toBe(cashBefore);
  });

  it('a reverse split divides, and a symbol not held is refused', async () => {
    const before = await holdingsOf(IDS.coreEquity);
    expect((await split(IDS.coreEquity, { symbol: 'JPM', ratio: '0.5' })).status).toBe(201);
    expect((await holdingsOf(IDS.coreEquity)).get('JPM')).toBe(
      new Decimal(before.get('JPM')!).times('0.5').toFixed(),
    );
    const notHeld = await split(IDS.coreEquity, { symbol: 'TLT', ratio: '2' });
    expect(notHeld.status).toBe(409);
    expect(notHeld.json.errors.detail).toMatch(/holds no TLT/);
  });
});
