import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError, type ServiceClient } from '../../../../electron/core/api';
import { SUCCESS_BODY_CAP } from '../../../../electron/core/api/http';
import { STRATEGY_ID, clientFor, startFake, strategyBody, type FakeService } from './fake-service';

/** How the transport reads an answer's body: as text once, with a size cap, a BOM dropped. */

let fake: FakeService | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await fake?.close();
});

async function serving(
  send: (reply: { send(body: unknown): unknown; type(t: string): unknown }) => unknown,
) {
  let hits = 0;
  fake = await startFake((app) => {
    app.get('/api/v1/strategies/:id', async (_req, reply) => {
      hits++;
      reply.type('application/json');
      return send(reply);
    });
  });
  client = clientFor(fake, { retry: { attempts: 1 } });
  return { hits: () => hits };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );

describe('reading an answer', () => {
  it('reads a body that starts with a byte order mark', async () => {
    await serving((reply) => reply.send(`\ufeff${JSON.stringify(strategyBody)}`));
    expect((await client!.getStrategy(STRATEGY_ID)).name).toBe('Core Equity');
  });

  it('reads a body sent in many chunks of unknown total length', async () => {
    const text = JSON.stringify(strategyBody);
    await serving((reply) => reply.send(Readable.from(Array.from(text, (c) => Buffer.from(c)))));
    expect(await client!.getStrategy(STRATEGY_ID)).toEqual(strategyBody.data);
  });

  it('refuses a success answer larger than the cap, declared or not, and stays usable', async () => {
    const big = Buffer.alloc(SUCCESS_BODY_CAP + 1, 32);
    let mode: 'declared' | 'chunked' | 'fits' = 'declared';
    const { hits } = await serving((reply) =>
      reply.send(
        mode === 'fits'
          ? JSON.stringify(strategyBody)
          : mode === 'chunked'
            ? Readable.from([big.subarray(0, 1024), big.subarray(1024)])
            : big,
      ),
    );
    for (const next of ['declared', 'chunked'] as const) {
      mode = next;
      const error = await failure(client!.getStrategy(STRATEGY_ID));
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ kind: 'bad-response' });
      expect((error as ServiceError).message).toMatch(/larger than \d+ bytes/);
    }
    mode = 'fits';
    expect((await client!.getStrategy(STRATEGY_ID)).id).toBe(STRATEGY_ID);
    expect(hits()).toBe(3);
  });
});
