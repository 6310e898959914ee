import { afterEach, describe, expect, it } from 'vitest';
import {
  isExecute,
  startFakeService,
  versionPathIds,
  withJson,
  type FakeService,
} from '../../support/fake-service';
import { openInteropDesk, row, FRESH, type InteropDesk } from '../../support/interop-desk';

/**
 * The execute answer's Location as a production service may give it (interface 4.4: "the path of
 * the version's retrieve endpoint"), through a manager's whole flow on the real desk, SQLite and
 * tracker: relative, on another origin, missing, without the includes the app needs. Each ends
 * COMPLETE with filled orders, and the token never leaves the profile's origin.
 */
let d: InteropDesk | undefined;
let trap: FakeService | undefined;
afterEach(async () => {
  await d?.close();
  await trap?.close();
  d = undefined;
  trap = undefined;
});

/** Forwards everything; the execute's 202 gets `location(versionId)` as its Location (or none). */
function locationIs(fake: FakeService, location: (versionId: string) => string | null): void {
  fake.answer(async (req, forward) => {
    const answer = await forward();
    if (!isExecute(req) || answer.status !== 202) return answer;
    const id = JSON.parse(answer.body.toString()).data.id as string;
    const { location: _given, ...headers } = answer.headers;
    const next = location(id);
    return { ...answer, headers: next === null ? headers : { ...headers, location: next } };
  });
}

/** Every version read the client made (path and query), and whether the service knew it. */
function versionReads(fake: FakeService) {
  return fake.requests.filter((r) => r.method === 'GET' && r.path.includes('/versions/'));
}

async function executedToTheEnd(desk: InteropDesk) {
  const version = await desk.execute([row('AAPL', '10'), row('MSFT', '5')]);
  const ended = await desk.ended(version.id);
  expect(ended.status).toBe('COMPLETE');
  expect(ended.orders.length).toBeGreaterThan(0);
  // Fills arrived: the polls read the orders too, not only the status.
  expect(ended.orders.every((o) => o.status === 'FILLED' || o.status === 'IGNORED')).toBe(true);
  expect(ended.orders.some((o) => o.filled_quantity !== null)).toBe(true);
  expect(await d!.harness.desk.versions.journal({ profileId: desk.profileId })).toEqual([]);
  return ended;
}

describe('a relative Location is resolved against the execute request (RFC 9110 10.2.2)', () => {
  it.each([
    ['the id alone', (id: string) => `${id}?include=orders,positions`],
    ['./ and the id', (id: string) => `./${id}?include=orders,positions`],
    ['../versions/ and the id', (id: string) => `../versions/${id}?include=orders,positions`],
  ])('%s: followed to COMPLETE under the service path', async (_form, location) => {
    d = await openInteropDesk({ fake: { prefix: '/psvs' } });
    locationIs(d.fake, location);
    const ended = await executedToTheEnd(d);
    const reads = versionReads(d.fake);
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads)
      expect(read.path).toBe(
        `/psvs/api/v1/strategies/${FRESH}/versions/${ended.id}?include=orders,positions`,
      );
  });
});

describe('a Location the app does not follow as given', () => {
  it('another name for this server (localhost for 127.0.0.1): the version is kept and followed at the profile origin', async () => {
    d = await openInteropDesk();
    const port = d.fake.port;
    locationIs(
      d.fake,
      (id) => `http://localhost:${port}/api/v1/strategies/${FRESH}/versions/${id}?include=orders`,
    );
    const ended = await executedToTheEnd(d);
    // The token went only where the profile says.
    for (const r of d.fake.requests.filter((q) => q.headers.authorization))
      expect(r.host).toBe(`127.0.0.1:${port}`);
    expect(versionReads(d.fake).every((r) => r.path.endsWith('?include=orders,positions'))).toBe(
      true,
    );
    await expectAcceptedSaying(d, ended.id, /localhost/);
  });

  it('another origin: nothing reaches it, the version is kept from the 202 body and followed', async () => {
    d = await openInteropDesk();
    trap = await startFakeService();
    const elsewhere = trap.origin;
    locationIs(
      d.fake,
      (id) => `${elsewhere}/api/v1/strategies/${FRESH}/versions/${id}?include=orders,positions`,
    );
    const ended = await executedToTheEnd(d);
    expect(trap.requests).toEqual([]);
    await expectAcceptedSaying(d, ended.id, new RegExp(elsewhere.replace(/[.:/]/g, '\\$&')));
  });

  it('no Location at all: the accepted version is kept and followed by its id', async () => {
    d = await openInteropDesk();
    locationIs(d.fake, () => null);
    const ended = await executedToTheEnd(d);
    await expectAcceptedSaying(d, ended.id, /no Location/i);
  });

  it('a Location without include=orders,positions: the polls still read the orders to their fills', async () => {
    d = await openInteropDesk();
    locationIs(d.fake, (id) => `/api/v1/strategies/${FRESH}/versions/${id}`);
    const ended = await executedToTheEnd(d);
    for (const read of versionReads(d.fake))
      expect(versionPathIds(read.path)).toEqual({
        strategyId: FRESH,
        versionId: ended.id,
        query: '?include=orders,positions',
      });
  });

  it('a Location with other query parameters keeps them beside the includes', async () => {
    d = await openInteropDesk();
    locationIs(
      d.fake,
      (id) => `/api/v1/strategies/${FRESH}/versions/${id}?include=positions&view=full`,
    );
    await executedToTheEnd(d);
    for (const read of versionReads(d.fake))
      expect(read.path).toMatch(/\?view=full&include=orders,positions$/);
  });
});

describe('the 202 body read as the interface allows', () => {
  it('a version with unknown extra fields, timestamps without microseconds and status null is accepted', async () => {
    d = await openInteropDesk();
    d.fake.answer(async (req, forward) => {
      const answer = await forward();
      if (!isExecute(req) || answer.status !== 202) return answer;
      return withJson(answer, (body) => {
        body.data.status = null;
        body.data.links = { self: 'x' };
        body.data.inserted_at = body.data.inserted_at.replace(/\.\d+Z$/, 'Z');
        for (const o of body.data.orders) o.broker_ref = 'B-1';
      });
    });
    const version = await d.execute([row('AAPL', '10')]);
    expect(version.status).toBeNull();
    expect(version.insertedAt).toMatch(/\.000000Z$/);
    const ended = await d.ended(version.id);
    expect(ended.status).toBe('COMPLETE');
  });
});

async function expectAcceptedSaying(desk: InteropDesk, versionId: string, why: RegExp) {
  const { entries } = await desk.harness.desk.activity.list({
    profileId: desk.profileId,
    kinds: ['execution-answered'],
    offset: 0,
    limit: 10,
  });
  const entry = entries.find((e) => e.versionId === versionId);
  expect(entry).toBeDefined();
  const detail = await desk.harness.desk.activity.get({ seq: entry!.seq });
  const facts = JSON.stringify(detail.facts);
  expect(facts).toMatch(why);
  expect(facts).toMatch(/not followed/i);
}
