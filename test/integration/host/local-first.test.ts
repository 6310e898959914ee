import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { ensureRendererBuilt } from '../../../electron/host/build-renderer';
import { startHost, type RunningHost } from '../../../electron/host';
import { createHttpBridge } from '../../../renderer/src/bridge/http-bridge';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

/**
 * Local work never waits on the network: with a slow service, a draft save through the
 * browser host comes back before any of the slow service calls made before it.
 */
const CORE = DEMO_STRATEGY_IDS.coreEquity;
/** The built-in sandbox profile's strategies: one slow read each (a second refresh joins the first). */
const STRATEGIES = [CORE, DEMO_STRATEGY_IDS.dividendGrowth, DEMO_STRATEGY_IDS.freshStart];
/** The service's delay on every request (60 s in the report; shorter here). */
const LATENCY_MS = 8_000;
/** Chromium opens at most six HTTP/1.1 connections to one host; so does this client. */
const browserLike = new Agent({ connections: 6 });
const browserFetch = ((url: string, init: RequestInit) =>
  undiciFetch(url, { ...(init as object), dispatcher: browserLike })) as unknown as typeof fetch;

let h: DeskHarness;
let host: RunningHost;
beforeAll(async () => {
  h = await openDeskHarness({ clientOptions: { timeouts: { requestMs: 60_000 } } });
  host = await startHost({
    handlers: h.desk,
    subscribe: (listener) => h.desk.subscribe(listener),
    staticDir: await ensureRendererBuilt(),
  });
}, 120_000);
afterAll(async () => {
  await sandboxAdmin(h.sandbox()!.baseUrl, 'DELETE', '/sandbox/faults');
  await host?.close();
  await h?.close();
  await browserLike.close();
});

const apiRequests = async () =>
  (
    (await sandboxAdmin(h.sandbox()!.baseUrl, 'GET', '/sandbox/counters')) as {
      data: { api_requests: number };
    }
  ).data.api_requests;

describe('local work never waits on the network', () => {
  it('a draft save returns before slow service calls sent before it', async () => {
    const bridge = createHttpBridge({
      origin: `http://127.0.0.1:${host.port}`,
      token: host.token,
      fetch: browserFetch,
    });
    // The page's event stream holds one of the six connections, as in the app.
    const unsubscribe = bridge.events.subscribe(() => {});
    const profileId = (await bridge.profiles.useSandbox({})).id;
    const draft = await bridge.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'Slow day',
      start: 'target',
    });
    // A token in hand first, so each refresh below is one slow request.
    await bridge.strategies.refresh({ profileId, strategyId: CORE });
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', {
      latency_ms: LATENCY_MS,
    });

    const finished: string[] = [];
    const before = await apiRequests();
    // Six slow calls from the page (two per strategy), as many as the browser has connections.
    const refreshes = Array.from({ length: 6 }, (_, i) =>
      bridge.strategies
        .refresh({ profileId, strategyId: STRATEGIES[i % STRATEGIES.length]! })
        .then(() => finished.push(`refresh ${i}`)),
    );
    // Slow calls are at the service (waiting out its latency) before the save is made.
    await expect
      .poll(async () => (await apiRequests()) - before, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(3);
    const saved = await bridge.drafts.saveRows({
      draftId: draft.id,
      rows: [...draft.rows.slice(1), { symbol: 'GOOGL', weight: '1.5', locked: false }],
    });
    finished.push('save');
    expect(saved.rowCount).toBe(draft.rows.length);
    await Promise.all(refreshes);
    expect(finished[0]).toBe('save');
    expect(finished).toHaveLength(7);
    unsubscribe();
  }, 60_000);
});
