import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS as IDS } from '../../../electron/sandbox/demo-data';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { call, executePath, target, tokenFor } from '../../support/sandbox-http';

/** Execute requests the sandbox refuses: 400 for the body itself, 422 for the target. */

let sandbox: RunningSandbox;
let url: string;
let manager: string;

beforeAll(async () => {
  sandbox = await startSandbox({ stepMs: 0 });
  url = sandbox.baseUrl;
  manager = await tokenFor(url, 'manager');
});
afterAll(() => sandbox.close());

describe('execute body errors', () => {
  it.each([
    ['no data', {}, 'data'],
    ['positions not a list', { data: { positions: {} } }, 'positions'],
    ['no positions', target(), 'positions'],
    [
      'a weight that is a number',
      { data: { positions: [{ symbol: 'AAPL', weight: 5 }] } },
      'positions',
    ],
    ['a weight with a comma', target(['AAPL', '5,5']), 'positions'],
    ['a weight in exponent form', target(['AAPL', '1e1']), 'positions'],
    ['a negative weight', target(['AAPL', '-1']), 'positions'],
    ['a weight above 98', target(['AAPL', '98.01']), 'positions'],
    ['weights over 98 in sum', target(['AAPL', '50'], ['MSFT', '48.000001']), 'positions'],
    ['a duplicate symbol', target(['AAPL', '5'], ['AAPL', '6']), 'positions'],
    ['an empty symbol', target(['', '5']), 'positions'],
    [
      'more than 1000 positions',
      {
        data: {
          positions: Array.from({ length: 1001 }, (_, i) => ({ symbol: `S${i}`, weight: '0' })),
        },
      },
      'positions',
    ],
  ])('answers 422 for %s, naming the field', async (_name, body, field) => {
    const answer = await call(url, 'POST', executePath(IDS.freshStart), { token: manager, body });
    expect(answer.status).toBe(422);
    expect(answer.json.errors.detail).toEqual(expect.any(String));
    expect(Array.isArray(answer.json.errors[field])).toBe(true);
  });

  it('answers 422 listing unknown symbols, matched exactly as sent', async () => {
    const answer = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body: target(['aapl', '1'], ['BRK.B', '1'], ['ZZZZ', '1']),
    });
    expect(answer.status).toBe(422);
    expect(answer.json.errors.symbols).toEqual(['aapl', 'ZZZZ']);
  });

  it.each([
    ['not JSON', '{"data":', 'application/json'],
    ['empty', '', 'application/json'],
    ['sent as text/plain', JSON.stringify(target(['AAPL', '1'])), 'text/plain'],
    ['too large', JSON.stringify({ pad: 'x'.repeat(1_100_000) }), 'application/json'],
    [
      'nested 100 000 levels deep',
      `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      'application/json',
    ],
  ])('answers 400 for a body %s', async (_name, body, contentType) => {
    const answer = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body,
      headers: { 'content-type': contentType },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors.detail).toEqual(expect.any(String));
  });
});
