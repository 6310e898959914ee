import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { clearAfterRun, killAndRestart } from '../../support/batch-kill';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { runSeed, seeded } from '../../support/seeded';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const FRESH = DEMO_STRATEGY_IDS.freshStart;
const RUNS = 3;

/**
 * A batch killed mid-send and the app started again, through real processes, the sandbox and
 * SQLite: what was sent is settled from the journal and followed, nothing is executed twice, and
 * nothing unsent goes out after the restart without a new review. The kill moments are seeded:
 * BATCH_SEED=<the printed seed> replays a failure.
 */
describe('a batch killed mid-send, then the app restarted', () => {
  let h: DeskHarness;
  let profileId: string;
  let modelId: string;
  const seed = runSeed();
  const random = seeded(seed);

  beforeAll(async () => {
    console.log(`batch kill runs: BATCH_SEED=${seed}`);
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    modelId = (
      await h.desk.models.create({
        name: 'Core model',
        start: { kind: 'strategy', profileId, strategyId: CORE },
      })
    ).id;
    // Slow enough answers that a kill lands before, during or after each send.
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 60 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it(`never sends twice and never sends the unsent after a restart (${RUNS} seeded runs)`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const model = await h.desk.models.get({ modelId });
      const rows = model.rows.map((r) =>
        r.symbol === 'SPY' ? { ...r, weight: String(20 - run - 1) } : r,
      );
      const revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
      const delayMs = Math.floor(random() * 700);
      const result = await killAndRestart(h, profileId, revisionId, [CORE, FRESH], delayMs, {
        concurrency: 1,
      });
      const context = `run ${run}, BATCH_SEED=${seed}, killed after ${delayMs} ms: ${JSON.stringify(result)}`;
      expect(result.batchId, context).not.toBeNull();
      expect(result.doubles, context).toBe(0);
      expect(result.unsentSentAfterRestart, context).toBe(0);
      const batch = await h.desk.batches.get({ batchId: result.batchId! });
      expect(batch.counts.ready + batch.counts.sending, context).toBe(0);
      if (result.killedAfterMs !== null && batch.state === 'stopped') {
        expect(batch.words, context).toBe(
          `stopped after ${result.sent} of 2: review the rest again`,
        );
      }
      // A review made before the restart is never sent after it either.
      await clearAfterRun(h, profileId);
    }
  });

  it('a review made before a restart expires: executing it sends nothing', async () => {
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows.map((r) => (r.symbol === 'SPY' ? { ...r, weight: '10' } : r));
    const revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: [CORE] });
    await h.restart();
    const expired = await h.desk.batches.get({ batchId: batch.id });
    expect(expired.state).toBe('expired');
    await expect(
      h.desk.batches.execute({
        batchId: batch.id,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
      }),
    ).rejects.toMatchObject({ kind: 'confirmation-outdated' });
  });
});
