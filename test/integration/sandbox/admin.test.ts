import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { version as versionSchema } from '../../../shared/domain/resources';
import {
  DEMO_STRATEGY_IDS as IDS,
  DEMO_VERSION_IDS as VIDS,
} from '../../../electron/sandbox/demo-data';
import { DEMO_BOOK_STRATEGY_IDS } from '../../../electron/sandbox/demo-book';
import { HALTED_INCOME } from '../../../electron/sandbox/demo-model';
import { THIN_MARKET } from '../../../electron/sandbox/demo-thin-market';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import {
  admin,
  call,
  executePath,
  target,
  tokenFor,
  versionPath,
} from '../../support/sandbox-http';

let sandbox: RunningSandbox;
let url: string;
let manager: string;
const STRATEGY = `/api/v1/strategies/${IDS.coreEquity}`;

beforeAll(async () => {
  sandbox = await startSandbox({ stepMs: 0 });
  url = sandbox.baseUrl;
  manager = await tokenFor(url, 'manager');
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  expect((await admin(url, 'POST', '/sandbox/reset')).status).toBe(204);
});

const faults = (body: unknown) => admin(url, 'PUT', '/sandbox/faults', body);

describe('admin guard', () => {
  it('answers 403 without X-Sandbox-Admin: 1 and never grants CORS', async () => {
    const guesses: Record<string, string>[] = [
      {},
      { 'x-sandbox-admin': '0' },
      { 'x-sandbox-admin': 'true' },
    ];
    for (const headers of guesses) {
      const answer = await call(url, 'POST', '/sandbox/reset', { headers });
      expect(answer.status).toBe(403);
      expect(answer.json.errors.detail).toMatch(/X-Sandbox-Admin/);
    }
    const preflight = await call(url, 'OPTIONS', '/sandbox/reset', {
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-sandbox-admin',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('answers 404 in the resource shape for unknown routes', async () => {
    const answer = await call(url, 'GET', '/api/v2/strategies');
    expect(answer.status).toBe(404);
    expect(answer.json.errors.detail).toEqual(expect.any(String));
  });
});

describe('reset, listing and unexecuted versions', () => {
  it('lists strategies with their latest and latest executed version ids and cash', async () => {
    const answer = await admin(url, 'GET', '/sandbox/strategies');
    expect(answer.status).toBe(200);
    const byId = Object.fromEntries(answer.json.data.map((s: { id: string }) => [s.id, s]));
    expect(byId[IDS.dividendGrowth]).toMatchObject({
      name: 'Dividend Growth',
      organization: 'Demo Capital',
      latest_version_id: VIDS.dividendGrowthScheduled,
      latest_executed_version_id: VIDS.dividendGrowthExecuted,
    });
    expect(byId[IDS.freshStart]).toMatchObject({
      latest_version_id: null,
      latest_executed_version_id: null,
      rebalancing: false,
      cash: '250000.00',
    });
    expect(byId[IDS.otherFund].organization).toBe('Other Advisors');
  });

  it('creates unexecuted versions (SCHEDULED with a time, null status without) that block execution', async () => {
    const scheduled = await admin(
      url,
      'POST',
      `/sandbox/strategies/${IDS.coreEquity}/unexecuted-versions`,
      {
        positions: [{ symbol: 'AAPL', weight: '20' }],
        scheduled_for: '2030-01-02T03:04:05Z',
      },
    );
    expect(scheduled.status).toBe(201);
    const v = versionSchema.parse(scheduled.json.data);
    expect(v).toMatchObject({
      status: 'SCHEDULED',
      executed_at: null,
      scheduled_for: '2030-01-02T03:04:05.000000Z',
    });
    expect(v.positions!.find((p) => p.symbol === 'AAPL')!.action).toBe('CHANGE');
    const blocked = await call(url, 'POST', executePath(IDS.coreEquity), {
      token: manager,
      body: target(['AAPL', '1']),
    });
    expect(blocked.json.errors.version_id).toBe(v.id);
    const plain = await admin(
      url,
      'POST',
      `/sandbox/strategies/${IDS.freshStart}/unexecuted-versions`,
      {},
    );
    expect(plain.json.data).toMatchObject({
      status: null,
      scheduled_for: null,
      executed_at: null,
      cash_weight: '100',
    });
    // Reset brings the demo data back.
    await admin(url, 'POST', '/sandbox/reset');
    const list = await admin(url, 'GET', '/sandbox/strategies');
    expect(
      list.json.data.find((s: { id: string }) => s.id === IDS.coreEquity).latest_version_id,
    ).toBe(VIDS.coreEquityExecuted);
  });

  it('changes an unexecuted version in place (same id), and refuses an executed one', async () => {
    const created = await admin(
      url,
      'POST',
      `/sandbox/strategies/${IDS.coreEquity}/unexecuted-versions`,
      { positions: [{ symbol: 'AAPL', weight: '20' }] },
    );
    const id = created.json.data.id as string;
    const path = `/sandbox/strategies/${IDS.coreEquity}/unexecuted-versions/${id}`;
    const changed = await admin(url, 'PUT', path, {
      positions: [{ symbol: 'KO', weight: '30' }],
      scheduled_for: '2031-05-06T07:08:09Z',
    });
    expect(changed.status).toBe(200);
    const read = await call(url, 'GET', versionPath(IDS.coreEquity, id, 'positions'), {
      token: manager,
    });
    const v = versionSchema.parse(read.json.data);
    expect(v).toMatchObject({
      id,
      status: 'SCHEDULED',
      scheduled_for: '2031-05-06T07:08:09.000000Z',
      cash_weight: '70',
    });
    expect(v.positions!.find((p) => p.symbol === 'KO')).toMatchObject({
      weight: '30',
      action: 'ADD',
    });
    expect(v.positions!.find((p) => p.symbol === 'AAPL')).toMatchObject({
      weight: '0',
      action: 'REMOVE',
    });
    // Unscheduled: no status, as a version created without a time.
    const unscheduled = await admin(url, 'PUT', path, { scheduled_for: null });
    expect(unscheduled.json.data).toMatchObject({ status: null, scheduled_for: null });
    const executed = `/sandbox/strategies/${IDS.coreEquity}/unexecuted-versions/${VIDS.coreEquityExecuted}`;
    expect((await admin(url, 'PUT', executed, {})).status).toBe(409);
    const unknown = `/sandbox/strategies/${IDS.coreEquity}/unexecuted-versions/00000000-0000-4000-8000-000000000000`;
    expect((await admin(url, 'PUT', unknown, {})).status).toBe(404);
    expect(
      (await admin(url, 'PUT', path, { positions: [{ symbol: 'ZZZQ', weight: '1' }] })).status,
    ).toBe(400);
  });

  it('answers 400 for bad input and 404 for an unknown strategy', async () => {
    const path = `/sandbox/strategies/${IDS.coreEquity}/unexecuted-versions`;
    for (const body of [
      { positions: 'x' },
      { scheduled_for: 'tomorrow' },
      { extra: 1 },
      { positions: [{ symbol: 'AAPL', weight: '99' }] },
      '{bad',
    ]) {
      const answer = await call(url, 'POST', path, {
        headers: { 'x-sandbox-admin': '1', 'content-type': 'application/json' },
        body,
      });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.errors.detail).toEqual(expect.any(String));
    }
    const missing = await admin(
      url,
      'POST',
      '/sandbox/strategies/00000000-0000-4000-8000-000000000000/unexecuted-versions',
      {},
    );
    expect(missing.status).toBe(404);
    expect((await admin(url, 'POST', '/sandbox/strategies/x/unexecuted-versions', {})).status).toBe(
      400,
    );
  });
});

describe('faults', () => {
  it('validates the faults body and keeps omitted keys; DELETE clears', async () => {
    for (const body of [
      { fail_status: 404 },
      { latency_ms: -1 },
      { fail_rate: 2 },
      { unknown: 1 },
      { api_rate_limit: { limit: 0, window_s: 1 } },
    ]) {
      expect((await faults(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await faults({ fail_next: 2 })).json.data.fail_next).toBe(2);
    const kept = await faults({ latency_ms: 5 });
    expect(kept.json.data).toMatchObject({
      fail_next: 2,
      latency_ms: 5,
      fail_status: 503,
      token_lifetime_s: 3600,
    });
    expect((await admin(url, 'DELETE', '/sandbox/faults')).status).toBe(204);
    expect((await faults({})).json.data).toMatchObject({ fail_next: 0, latency_ms: 0 });
  });

  it('fail_next answers the next N /api requests with fail_status, not token or admin requests', async () => {
    await faults({ fail_next: 2, fail_status: 502 });
    await tokenFor(url, 'manager');
    await admin(url, 'GET', '/sandbox/counters');
    const first = await call(url, 'GET', STRATEGY, { token: manager });
    expect(first.status).toBe(502);
    expect(first.json.errors.detail).toMatch(/502/);
    expect((await call(url, 'GET', STRATEGY)).status).toBe(502);
    expect((await call(url, 'GET', STRATEGY, { token: manager })).status).toBe(200);
  });

  it('fail_next_method lets only requests of that method count for fail_next', async () => {
    const created = await admin(
      url,
      'POST',
      `/sandbox/strategies/${IDS.freshStart}/unexecuted-versions`,
      {},
    );
    const path = versionPath(IDS.freshStart, created.json.data.id as string);
    await faults({ fail_next: 1, fail_next_method: 'DELETE', fail_status: 503 });
    expect((await call(url, 'GET', path, { token: manager })).status).toBe(200);
    expect((await call(url, 'DELETE', path, { token: manager })).status).toBe(503);
    expect((await call(url, 'DELETE', path, { token: manager })).status).toBe(204);
  });

  it('fail_rate 1 fails every /api request', async () => {
    await faults({ fail_rate: 1, fail_status: 500 });
    for (let i = 0; i < 3; i++)
      expect((await call(url, 'GET', STRATEGY, { token: manager })).status).toBe(500);
    await faults({ fail_rate: 0 });
    expect((await call(url, 'GET', STRATEGY, { token: manager })).status).toBe(200);
  });

  it('latency_ms delays answers', async () => {
    await faults({ latency_ms: 150 });
    const started = Date.now();
    await call(url, 'GET', STRATEGY, { token: manager });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('drop_after_commit_next commits the execution and then drops the connection', async () => {
    await faults({ drop_after_commit_next: 1 });
    const headers = { 'idempotency-key': 'drop-1' };
    const body = target(['SPY', '30']);
    await expect(
      call(url, 'POST', executePath(IDS.freshStart), { token: manager, body, headers }),
    ).rejects.toThrow();
    const counters = await admin(url, 'GET', '/sandbox/counters');
    expect(counters.json.data.executions_accepted[IDS.freshStart]).toBe(1);
    const list = await admin(url, 'GET', '/sandbox/strategies');
    const committed = list.json.data.find(
      (s: { id: string }) => s.id === IDS.freshStart,
    ).latest_executed_version_id;
    expect(committed).toEqual(expect.any(String));
    // The retry with the same key gets the original answer; no second execution.
    const replay = await call(url, 'POST', executePath(IDS.freshStart), {
      token: manager,
      body,
      headers,
    });
    expect(replay.status).toBe(202);
    expect(replay.json.data.id).toBe(committed);
    expect(
      (await admin(url, 'GET', '/sandbox/counters')).json.data.executions_accepted[IDS.freshStart],
    ).toBe(1);
  });

  it('malformed_json_next truncates the next GET bodies (200, JSON content type)', async () => {
    await faults({ malformed_json_next: 1 });
    const broken = await call(url, 'GET', STRATEGY, { token: manager });
    expect(broken.status).toBe(200);
    expect(broken.headers['content-type']).toMatch(/application\/json/);
    expect(() => JSON.parse(broken.text)).toThrow();
    expect((await call(url, 'GET', STRATEGY, { token: manager })).json.data.fee_percent).toBe(
      '0.25',
    );
  });

  it('wrong_types_next sends valid JSON with numbers where decimal strings belong', async () => {
    await faults({ wrong_types_next: 2 });
    const s = await call(url, 'GET', STRATEGY, { token: manager });
    expect(s.json.data.fee_percent).toBe(0.25);
    const v = await call(url, 'GET', versionPath(IDS.coreEquity, VIDS.coreEquityExecuted), {
      token: manager,
    });
    expect(v.json.data.cash_weight).toBe(12);
    expect(versionSchema.safeParse(v.json.data).success).toBe(false);
    expect((await call(url, 'GET', STRATEGY, { token: manager })).json.data.fee_percent).toBe(
      '0.25',
    );
  });

  it('token_rate_limit answers 429 rate_limited with Retry-After', async () => {
    await faults({ token_rate_limit: { limit: 2, window_s: 30 } });
    await tokenFor(url, 'manager');
    await tokenFor(url, 'viewer');
    const limited = await call(url, 'POST', '/api/auth/token', {
      body: { client_id: 'demo-manager', client_secret: 'demo-secret' },
    });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toBe('rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(29);
    expect(retryAfter).toBeLessThanOrEqual(30);
    await faults({ token_rate_limit: null });
    expect(await tokenFor(url, 'manager')).toEqual(expect.any(String));
  });

  it('api_rate_limit answers 429 with Retry-After until the window frees', async () => {
    await faults({ api_rate_limit: { limit: 2, window_s: 1 } });
    expect((await call(url, 'GET', STRATEGY, { token: manager })).status).toBe(200);
    expect((await call(url, 'GET', STRATEGY, { token: manager })).status).toBe(200);
    const limited = await call(url, 'GET', STRATEGY, { token: manager });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json.errors.detail).toMatch(/Too many/);
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect((await call(url, 'GET', STRATEGY, { token: manager })).status).toBe(200);
  });
});

describe('timing and counters', () => {
  it('sets the step time, and counts token and api requests and accepted executions', async () => {
    expect((await admin(url, 'PUT', '/sandbox/timing', { step_ms: 25 })).json).toEqual({
      data: { step_ms: 25 },
    });
    expect((await admin(url, 'PUT', '/sandbox/timing', { step_ms: -1 })).status).toBe(400);
    expect((await admin(url, 'PUT', '/sandbox/timing', {})).status).toBe(400);
    await tokenFor(url, 'manager');
    await call(url, 'GET', STRATEGY, { token: manager });
    await call(url, 'POST', executePath(IDS.coreEquity), {
      token: manager,
      body: target(['AAPL', '1']),
    });
    const counters = await admin(url, 'GET', '/sandbox/counters');
    expect(counters.json.data).toEqual({
      executions_accepted: {
        [IDS.coreEquity]: 1,
        [IDS.dividendGrowth]: 0,
        [IDS.freshStart]: 0,
        [IDS.otherFund]: 0,
        ...Object.fromEntries(Object.values(DEMO_BOOK_STRATEGY_IDS).map((id) => [id, 0])),
        [HALTED_INCOME.strategyId]: 0,
        [THIN_MARKET.strategyId]: 0,
      },
      token_requests: 1,
      api_requests: 2,
    });
    await admin(url, 'POST', '/sandbox/reset');
    const zero = await admin(url, 'GET', '/sandbox/counters');
    expect(zero.json.data).toMatchObject({ token_requests: 0, api_requests: 0 });
  });
});
