import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS, HALTED_SYMBOL } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/views';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const FRESH = DEMO_STRATEGY_IDS.freshStart;
const CORE = DEMO_STRATEGY_IDS.coreEquity;

async function rejection(promise: Promise<unknown>): Promise<DeskError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

/** A failed rebalance counts as needing attention until acknowledged, across a restart. */
describe('failed executions need attention, through the desk, the sandbox and SQLite', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  async function execute(strategyId: string, rows: { symbol: string; weight: string }[]) {
    const draft = await h.desk.drafts.create({ profileId, strategyId, name: 'x', start: 'empty' });
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: rows.map((r) => ({ ...r, locked: false })),
    });
    return (await h.desk.versions.execute({ draftId: draft.id })).version;
  }
  const ended = (versionId: string) =>
    h.waitFor((e) => e.type === 'version-status-changed' && e.versionId === versionId && e.ended);

  it('counts a FAILED version in the status bar and on its strategy until it is acknowledged', async () => {
    expect((await h.desk.app.status({})).needsAttention).toBe(0);
    // Slow steps: the rebalance is still under way when the acknowledgement is first asked for.
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/timing', { step_ms: 2_000 });
    const version = await execute(FRESH, [
      { symbol: 'AAPL', weight: '40' },
      { symbol: HALTED_SYMBOL, weight: '10' },
    ]);
    const ref = { profileId, strategyId: FRESH, versionId: version.id };

    // Not ended: more orders may still fail, so it cannot be acknowledged yet.
    const early = await rejection(h.desk.versions.acknowledgeFailure(ref));
    expect(early.message).toMatch(/^This rebalance has not ended yet \(status [A-Z_]+\)/);

    const end = await ended(version.id);
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/timing', { step_ms: 0 });
    expect(end).toMatchObject({
      status: 'FAILED',
      appStatus: { needsAttention: 1, failedUnacknowledged: 1 },
      strategy: { id: FRESH, needsAttention: true, failedVersionIds: [version.id] },
    });

    await h.restart();
    expect(await h.desk.app.status({})).toMatchObject({
      needsAttention: 1,
      failedUnacknowledged: 1,
    });
    const line = (await h.desk.strategies.list({ profileId })).find((s) => s.id === FRESH);
    expect(line).toMatchObject({ needsAttention: true, failedVersionIds: [version.id] });
    expect((await h.desk.versions.get(ref)).failureAcknowledgedAt).toBeNull();

    const acknowledged = await h.desk.versions.acknowledgeFailure(ref);
    expect(acknowledged.failureAcknowledgedAt).toEqual(expect.any(String));
    expect(await h.desk.app.status({})).toMatchObject({
      needsAttention: 0,
      failedUnacknowledged: 0,
    });
    const after = (await h.desk.strategies.list({ profileId })).find((s) => s.id === FRESH);
    expect(after).toMatchObject({ needsAttention: false, failedVersionIds: [] });
  });

  it('refuses to acknowledge a version that did not fail', async () => {
    const target = (await h.desk.strategies.get({ profileId, strategyId: CORE })).currentTarget!;
    const version = await execute(
      CORE,
      target.positions.map((p, i) => ({ symbol: p.symbol, weight: i === 0 ? '1' : p.weight })),
    );
    await ended(version.id);
    const error = await rejection(
      h.desk.versions.acknowledgeFailure({ profileId, strategyId: CORE, versionId: version.id }),
    );
    expect(error).toMatchObject({
      kind: 'invalid-input',
      message:
        'This version did not fail and has no failed order: there is nothing to acknowledge.',
    });
    expect((await h.desk.app.status({})).needsAttention).toBe(0);
  });
});
