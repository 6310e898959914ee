import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { SLOW_SERVICE_MESSAGE } from '../../../electron/core/profiles/connections';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const LATENCY_MS = 4_000;

describe('a slow service: said so, and a refresh the manager can cancel', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({
      stepMs: 0,
      clientOptions: { slowAfterMs: 150, timeouts: { requestMs: 30_000 } },
    });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    await h.desk.strategies.add({ profileId, strategyId: CORE });
  });
  afterAll(async () => {
    await h?.close();
  });

  const connectivity = (message: string | null) => (e: DeskEvent) =>
    e.type === 'connectivity-changed' &&
    e.profileId === profileId &&
    e.online &&
    e.message === message;

  it('shows the service as slow while a refresh waits, and cancelling it ends it at once', async () => {
    const before = await h.desk.strategies.get({ profileId, strategyId: CORE });
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: LATENCY_MS });
    const seen = h.events.length;
    const started = performance.now();
    const refresh = h.desk.strategies.refresh({ profileId, strategyId: CORE }).then(
      () => null,
      (e: unknown) => e,
    );
    await h.waitFor((e) => h.events.indexOf(e) >= seen && connectivity(SLOW_SERVICE_MESSAGE)(e));
    // Still online: the service answers, slowly.
    expect((await h.desk.app.status({})).online).toBe(true);

    await h.desk.strategies.cancelRefresh({ profileId, strategyId: CORE });
    const error = await refresh;
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(DeskError);
    expect(error).toMatchObject({ kind: 'cancelled' });
    // Ended by the cancel, well before the service would have answered.
    expect(elapsed).toBeLessThan(LATENCY_MS);
    // Nothing changed in the cache; no longer slow once nothing waits.
    const after = await h.desk.strategies.get({ profileId, strategyId: CORE });
    expect(after.syncedAt).toBe(before.syncedAt);
    await h.waitFor((e) => h.events.indexOf(e) >= seen && connectivity(null)(e));
    expect((await h.desk.app.status({})).online).toBe(true);

    // With the service fast again, a refresh goes through.
    await sandboxAdmin(h.sandbox()!.baseUrl, 'DELETE', '/sandbox/faults');
    const fresh = await h.desk.strategies.refresh({ profileId, strategyId: CORE });
    expect(fresh.syncedAt > before.syncedAt).toBe(true);
  });

  it('cancelling when no refresh is under way changes nothing', async () => {
    await expect(h.desk.strategies.cancelRefresh({ profileId, strategyId: CORE })).resolves.toEqual(
      { ok: true },
    );
  });
});
