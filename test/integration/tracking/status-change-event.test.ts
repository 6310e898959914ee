import { afterEach, describe, expect, it } from 'vitest';
import { deskEvent, type DeskEvent } from '../../../shared/contract';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
let h: DeskHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type StatusChanged = Extract<DeskEvent, { type: 'version-status-changed' }>;

describe('a version status change event', () => {
  it('carries what the screens show, as the handlers answer it', async () => {
    h = await openDeskHarness({ stepMs: 100 });
    const desk = h.desk;
    const profileId = (await desk.profiles.useSandbox({})).id;
    const draft = await desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'd',
      start: 'target',
    });
    const { version } = await desk.versions.execute({ draftId: draft.id });
    await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
    );
    const changes = h.events.filter(
      (e): e is StatusChanged => e.type === 'version-status-changed' && e.versionId === version.id,
    );
    expect(changes.length).toBeGreaterThanOrEqual(1);
    for (const change of changes) {
      expect(deskEvent.safeParse(change).success).toBe(true);
      expect(change.version).toMatchObject({ id: version.id, status: change.status });
      expect(change.strategy).toMatchObject({ id: CORE, running: !change.ended });
      expect(change.appStatus.runningVersions).toBe(change.ended ? 0 : 1);
      expect(change.settledStrategy === null).toBe(!change.ended);
    }
    // After the end nothing moves: the last event equals what the handlers answer now.
    const last = changes.at(-1)!;
    const listed = await desk.versions.list({ profileId, strategyId: CORE });
    expect(last.version).toEqual(listed.find((v) => v.id === version.id));
    const lines = await desk.strategies.list({ profileId });
    expect(last.strategy).toEqual(lines.find((s) => s.id === CORE));
    const status = await desk.app.status({});
    expect(last.appStatus).toEqual({
      runningVersions: status.runningVersions,
      lastSyncAt: status.lastSyncAt,
      needsAttention: status.needsAttention,
      failedUnacknowledged: status.failedUnacknowledged,
    });
    expect(last.settledStrategy).toEqual(
      await desk.strategies.get({ profileId, strategyId: CORE }),
    );
    // The strategy was read as the version ended: its holdings are the rebalance's.
    expect(last.settledStrategy!.syncedAt >= last.version.syncedAt).toBe(true);
    // Small: the version's orders and positions stay out (its detail is one read away).
    expect(last.version).not.toHaveProperty('orders');
    expect(last.version).not.toHaveProperty('positions');
  });
});
