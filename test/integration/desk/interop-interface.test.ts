import { deleteShown } from '../../support/delete-version';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { DECIMAL_PATTERN } from '../../../shared/decimal';
import { isToken, withJson, type SeenRequest } from '../../support/fake-service';
import { openInteropDesk, row, FRESH, type InteropDesk } from '../../support/interop-desk';

/**
 * The whole flow held against a reading of the service interface as a schema: the client sends
 * nothing the interface does not define (headers aside), and accepts the answers in every form
 * it allows (nulls, set optional fields, unknown fields, timestamps in other ISO 8601 forms),
 * storing money exactly as received.
 */
let d: InteropDesk | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;
const SCHEDULED = DEMO_VERSION_IDS.dividendGrowthScheduled;
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** The interface's operations (4.1 to 4.5): method, path, and the queries each allows. */
const OPERATIONS: { name: string; method: string; path: RegExp; queries: string[] }[] = [
  { name: 'token', method: 'POST', path: /^\/api\/auth\/token$/, queries: [''] },
  {
    name: 'strategy',
    method: 'GET',
    path: new RegExp(`^/api/v1/strategies/${UUID}$`),
    queries: ['', 'include=positions'],
  },
  {
    name: 'version',
    method: 'GET',
    path: new RegExp(`^/api/v1/strategies/${UUID}/versions/${UUID}$`),
    queries: [
      '',
      'include=orders',
      'include=positions',
      'include=orders,positions',
      'include=positions,orders',
    ],
  },
  {
    name: 'execute',
    method: 'POST',
    path: new RegExp(`^/api/v1/strategies/${UUID}/versions/execute$`),
    queries: [''],
  },
  {
    name: 'delete',
    method: 'DELETE',
    path: new RegExp(`^/api/v1/strategies/${UUID}/versions/${UUID}$`),
    queries: [''],
  },
];

/** Which operation a request is, or a description of what is wrong with it. */
function conformance(req: SeenRequest): string {
  const [path, query = ''] = req.path.split('?') as [string, string?];
  const op = OPERATIONS.find((o) => o.method === req.method && o.path.test(path));
  if (!op) return `not in the interface: ${req.method} ${req.path}`;
  if (!op.queries.includes(decodeURIComponent(query)))
    return `${op.name}: a query the interface does not define: ${query}`;
  if (op.name === 'token') {
    const body = JSON.parse(req.body) as Record<string, unknown>;
    if (Object.keys(body).sort().join() !== 'client_id,client_secret')
      return `token: body fields ${Object.keys(body).join()}`;
    if (req.headers['content-type'] !== 'application/json') return 'token: not sent as JSON';
  } else if (op.name === 'execute') {
    const body = JSON.parse(req.body) as { data?: { positions?: unknown } };
    if (Object.keys(body).join() !== 'data' || Object.keys(body.data ?? {}).join() !== 'positions')
      return `execute: body ${req.body.slice(0, 80)}`;
    for (const p of body.data!.positions as Record<string, unknown>[]) {
      if (Object.keys(p).sort().join() !== 'symbol,weight')
        return `execute: position ${JSON.stringify(p)}`;
      if (typeof p.symbol !== 'string' || typeof p.weight !== 'string') return 'execute: types';
      if (!DECIMAL_PATTERN.test(p.weight) || Number(p.weight) < 0 || Number(p.weight) > 98)
        return `execute: weight ${p.weight}`;
    }
    if (req.headers['content-type'] !== 'application/json') return 'execute: not sent as JSON';
  } else if (req.body !== '') return `${op.name}: a body where the interface has none`;
  if (op.name !== 'token' && !/^Bearer \S+$/.test(String(req.headers.authorization)))
    return `${op.name}: no bearer token`;
  return op.name;
}

describe('the flow against the interface read as a schema', () => {
  it('every request the client sends is an operation of the interface, with its own fields only', async () => {
    d = await openInteropDesk();
    const { profileId } = d;
    const desk = d.harness.desk;
    await desk.profiles.testConnection({ profileId });
    await desk.strategies.add({ profileId, strategyId: DIVIDEND });
    await desk.versions.import({ profileId, strategyId: DIVIDEND, versionId: SCHEDULED });
    await deleteShown(desk, { profileId, strategyId: DIVIDEND, versionId: SCHEDULED });
    const version = await d.execute([row('AAPL', '10'), row('BRK.B', '2.5')]);
    expect((await d.ended(version.id)).status).toBe('COMPLETE');
    const draft = await desk.drafts.create({
      profileId,
      strategyId: FRESH,
      name: 'again',
      start: 'target',
    });
    await desk.versions.prepareExecute({ draftId: draft.id });
    await desk.strategies.refresh({ profileId, strategyId: FRESH });

    const seen = d.fake.requests.map(conformance);
    expect(
      seen.filter((s) => !['token', 'strategy', 'version', 'execute', 'delete'].includes(s)),
    ).toEqual([]);
    expect(new Set(seen)).toEqual(new Set(['token', 'strategy', 'version', 'execute', 'delete']));
  });

  it('answers in every form the interface allows are taken, and money is stored as received', async () => {
    d = await openInteropDesk();
    const forms = [
      (t: string) => t, // microseconds and Z, as the sandbox writes them
      (t: string) => t.replace(/\.\d+Z$/, 'Z'), // no fraction
      (t: string) => t.replace(/(\.\d{3})\d+Z$/, '$1Z'), // milliseconds
      (t: string) => t.replace(/Z$/, '+00:00'), // an offset
      (t: string) => t.replace(/(\.\d+)Z$/, '$1987Z'), // nanoseconds
      (t: string) => t.replace('T', 't').replace(/Z$/, 'z'), // RFC 3339 lower case
    ];
    let n = 0;
    const retime = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(retime);
      if (value && typeof value === 'object') {
        const out: Record<string, unknown> = { x_extension: { nested: [1, null] } };
        for (const [k, v] of Object.entries(value))
          out[k] =
            /_at$|_for$/.test(k) && typeof v === 'string'
              ? forms[n++ % forms.length]!(v)
              : retime(v);
        return out;
      }
      return value;
    };
    d.fake.answer(async (req, forward) => {
      const answer = await forward();
      if (isToken(req) || answer.status >= 300 || answer.body.length === 0) return answer;
      return withJson(answer, (body) => {
        const data = body.data as Record<string, unknown>;
        if ('is_liquidate_only' in data) {
          data.liquidate_only_reason = 'MANUAL_REVIEW';
          data.description = '';
        }
        if ('cash_weight' in data && req.method === 'GET')
          data.scheduled_for = '2030-01-01T00:00:00Z';
        return { ...(retime(body) as object), meta: { request_id: 'r-1' }, links: {} };
      });
    });
    const version = await d.execute([row('AAPL', '10'), row('MSFT', '7.25')]);
    const ended = await d.ended(version.id);
    expect(ended.status).toBe('COMPLETE');
    expect(ended.positions.map((p) => [p.symbol, p.weight])).toEqual([
      ['AAPL', '10'],
      ['MSFT', '7.25'],
    ]);
    // Every stored timestamp is the one UTC form, whatever form it came in.
    const micro = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
    for (const o of ended.orders) {
      expect(o.inserted_at).toMatch(micro);
      expect(o.updated_at).toMatch(micro);
      expect(o.filled_quantity).toMatch(DECIMAL_PATTERN);
    }
    expect(ended.scheduledFor).toBe('2030-01-01T00:00:00.000000Z');
    const strategy = await d.harness.desk.strategies.get({
      profileId: d.profileId,
      strategyId: FRESH,
    });
    expect(strategy.holdings.map((h) => h.symbol).sort()).toEqual(['AAPL', 'MSFT']);
    expect(n).toBeGreaterThan(forms.length);
  });
});
