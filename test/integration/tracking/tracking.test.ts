import { afterEach, describe, expect, it } from 'vitest';
import { DeskError } from '../../../shared/views';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
let h: DeskHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function executeCore(harness: DeskHarness) {
  const profileId = (await harness.desk.profiles.useSandbox({})).id;
  const draft = await harness.desk.drafts.create({
    profileId,
    strategyId: CORE,
    name: 'd',
    start: 'target',
  });
  const { version } = await harness.desk.versions.execute({ draftId: draft.id });
  return { profileId, versionId: version.id };
}

describe('tracking through the desk', () => {
  it('resumes following a version after a restart', async () => {
    h = await openDeskHarness({ stepMs: 250 });
    const { profileId, versionId } = await executeCore(h);
    await h.restart();
    const ended = await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === versionId && e.ended,
    );
    expect(ended).toMatchObject({ status: 'COMPLETE' });
    const version = await h.desk.versions.get({ profileId, strategyId: CORE, versionId });
    expect(version.status).toBe('COMPLETE');
    expect(version.orders.every((o) => o.status === 'FILLED' || o.status === 'IGNORED')).toBe(true);
  });

  it('goes offline when the service stops answering, pauses, and finishes once it answers again', async () => {
    h = await openDeskHarness({
      stepMs: 100,
      clientOptions: { timeouts: { requestMs: 150 }, retry: { attempts: 1 } },
    });
    const { versionId } = await executeCore(h);
    const base = h.sandbox()!.baseUrl;
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { latency_ms: 400 });
    await h.waitFor((e) => e.type === 'connectivity-changed' && !e.online);
    expect((await h.desk.app.status({})).online).toBe(false);
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
    await h.waitFor((e) => e.type === 'connectivity-changed' && e.online);
    await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === versionId && e.ended,
    );
    expect((await h.desk.app.status({})).online).toBe(true);
  });

  it('a malformed or mistyped answer is a typed error and leaves the cache as it was', async () => {
    h = await openDeskHarness({ stepMs: 0 });
    const profileId = (await h.desk.profiles.useSandbox({})).id;
    const before = await h.desk.strategies.get({ profileId, strategyId: CORE });
    const base = h.sandbox()!.baseUrl;
    for (const fault of [{ malformed_json_next: 1 }, { wrong_types_next: 1 }]) {
      await sandboxAdmin(base, 'PUT', '/sandbox/faults', fault);
      const error = await h.desk.strategies
        .refresh({ profileId, strategyId: CORE })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeskError);
      expect((error as DeskError).kind).toBe('bad-response');
      expect((error as DeskError).message).not.toMatch(/[{}]/);
      expect(await h.desk.strategies.get({ profileId, strategyId: CORE })).toEqual(before);
    }
  });

  it('a version whose every poll is refused says why, keeps trying, and "Check now" polls at once', async () => {
    // After a failure the next poll is 20 s away: only "Check now" can make it sooner.
    h = await openDeskHarness({
      stepMs: 20,
      trackerBackoff: { initialMs: 20_000, factor: 1, maxMs: 20_000 },
    });
    const profileId = (await h.desk.profiles.useSandbox({})).id;
    const base = h.sandbox()!.baseUrl;
    // Every read of the version comes back with numbers where decimals belong.
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { wrong_types_next: 1_000_000 });
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'd',
      start: 'target',
    });
    const { version } = await h.desk.versions.execute({ draftId: draft.id });
    const ref = { profileId, strategyId: CORE, versionId: version.id };
    const announced = await h.waitFor(
      (e) => e.type === 'version-tracking-changed' && e.versionId === version.id,
    );
    const stuck = await h.desk.versions.get(ref);
    // The event carries the problem the detail shows (its time may have moved on since).
    expect(announced).toMatchObject({
      trackingProblem: {
        message: stuck.trackingProblem!.message,
        waitingFor: null,
        stopped: false,
      },
    });
    expect(stuck.status).toBe('PENDING');
    expect(stuck.tracking).toBe(true);
    expect(stuck.trackingProblem).toMatchObject({ waitingFor: null, stopped: false });
    expect(stuck.trackingProblem!.message).toMatch(/form the app|understand|expected/i);
    expect(stuck.trackingProblem!.message).not.toMatch(/[{}]/);
    expect(Date.parse(stuck.trackingProblem!.at)).not.toBeNaN();

    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
    const checked = await h.desk.versions.checkNow(ref);
    expect(checked.trackingProblem).toBeNull();
    expect(checked.statusSeen.map((s) => s.status)).toContain(checked.status);
    // The service moves on its own clock (20 ms a step): each "Check now" sees where it is now,
    // well before the 20 s the loop itself would wait.
    await expect
      .poll(async () => (await h!.desk.versions.checkNow(ref)).status, { timeout: 5_000 })
      .not.toBe('PENDING');
  });
});
