import { afterEach, describe, expect, it } from 'vitest';
import { DeskError } from '../../../shared/views';
import { compressed, isToken, type Coding } from '../../support/fake-service';
import { openInteropDesk, row, FRESH, type InteropDesk } from '../../support/interop-desk';

/**
 * A compressing proxy in front of the service: every answer (the token, the strategy, the
 * execute's 202, each poll, the errors) comes gzip-, br- or deflate-coded, through a manager's
 * whole flow on the real desk, SQLite and tracker.
 */
let d: InteropDesk | undefined;
afterEach(async () => {
  await d?.close();
  d = undefined;
});

const CODINGS: Coding[] = ['gzip', 'br', 'deflate', 'raw-deflate', 'x-gzip'];

describe('compressed answers', () => {
  it('every answer compressed, each coding in turn: the flow ends COMPLETE with the fills', async () => {
    d = await openInteropDesk();
    let n = 0;
    d.fake.answer(async (_req, forward) => compressed(await forward(), CODINGS[n++ % 5]!));
    // A refusal first: its compressed body still names the unknown symbol.
    const refused = await d.execute([row('ZZZQ', '5')]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DeskError);
    expect(refused).toMatchObject({
      kind: 'unknown-symbols',
      details: { unknownSymbols: ['ZZZQ'] },
    });

    const version = await d.execute([row('AAPL', '10'), row('MSFT', '5')]);
    expect(version.orders.length).toBe(2);
    const ended = await d.ended(version.id);
    expect(ended.status).toBe('COMPLETE');
    expect(ended.orders.every((o) => o.status === 'FILLED' && o.filled_quantity !== null)).toBe(
      true,
    );
    const holdings = (
      await d.harness.desk.strategies.get({ profileId: d.profileId, strategyId: FRESH })
    ).holdings;
    expect(holdings.map((h) => h.symbol).sort()).toEqual(['AAPL', 'MSFT']);
    expect(n).toBeGreaterThan(5);
    // Each request said which codings the client reads.
    for (const r of d.fake.requests) expect(r.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('a coding the app does not read is refused in plain words, and nothing is stored', async () => {
    d = await openInteropDesk();
    d.fake.answer(async (req, forward) => {
      const answer = await forward();
      if (isToken(req)) return answer;
      return { ...answer, headers: { ...answer.headers, 'content-encoding': 'zstd' } };
    });
    const error = await d.harness.desk.strategies
      .add({ profileId: d.profileId, strategyId: FRESH })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeskError);
    expect((error as DeskError).kind).toBe('bad-response');
    expect((error as DeskError).message).toMatch(/zstd/);
    expect((error as DeskError).message).toMatch(/gzip, deflate and br/);
    expect(d.harness.desk.store.strategies.get(d.profileId, FRESH)).toBeFalsy();
  });

  it('a body that is not what its coding says is an unreadable answer, not garbage stored', async () => {
    d = await openInteropDesk();
    d.fake.answer(async (req, forward) => {
      const answer = await forward();
      if (isToken(req)) return answer;
      return { ...answer, headers: { ...answer.headers, 'content-encoding': 'gzip' } };
    });
    const error = await d.harness.desk.strategies
      .add({ profileId: d.profileId, strategyId: FRESH })
      .catch((e: unknown) => e);
    expect((error as DeskError).kind).toBe('bad-response');
    expect((error as DeskError).message).toMatch(/gzip/);
    expect(d.harness.desk.store.strategies.get(d.profileId, FRESH)).toBeFalsy();
  });
});
