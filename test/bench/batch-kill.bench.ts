/**
 * batch_doubles and batch_unsent_after_restart_sent (docs/batches.md): 20 runs, each a batch of
 * 50 strategies sent by a child process that is SIGKILLed at a seeded random moment of the send,
 * then the desk opened again on the same folder. Over all runs: how many strategies the service
 * executed twice (goal 0), and how many not sent before the kill went out after the restart
 * (goal 0). BATCH_SEED=<the printed seed> replays the moments.
 */
import { clearAfterRun, killAndRestart } from '../support/batch-kill';
import { openDeskHarness, sandboxAdmin } from '../support/desk-harness';
import { manyStrategiesSandbox, profileWithCopies } from '../support/many-strategies';
import { runSeed, seeded } from '../support/seeded';

const RUNS = 20;
const STRATEGIES = 50;

export default async function batchKillBench(): Promise<Record<string, number>> {
  const seed = runSeed();
  const random = seeded(seed);
  console.log(`  BATCH_SEED=${seed}`);
  const sandbox = await manyStrategiesSandbox(STRATEGIES, 0);
  const h = await openDeskHarness({ stepMs: 0 });
  let doubles = 0;
  let unsent = 0;
  let killed = 0;
  try {
    const profileId = await profileWithCopies(h.desk, sandbox);
    // Answers slow enough that sending 50 takes about 3 s: the random moments below land before,
    // during and after sends (with instant answers the batch was sent before most of them).
    await sandboxAdmin(sandbox.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 100 });
    const model = await h.desk.models.create({
      name: 'Kill model',
      start: { kind: 'strategy', profileId, strategyId: sandbox.ids[0]! },
    });
    for (let run = 0; run < RUNS; run++) {
      const rows = model.rows.map((r) =>
        r.symbol === 'SPY'
          ? { ...r, weight: String(19 - (run % 10)) + (run >= 10 ? '.5' : '') }
          : r,
      );
      const revisionId = (await h.desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;
      // A moment anywhere in the send, or just after.
      const delayMs = Math.floor(random() * 3000);
      const result = await killAndRestart(h, profileId, revisionId, sandbox.ids, delayMs, {
        baseUrl: sandbox.baseUrl,
      });
      console.log(
        `  run ${run}: killed after ${result.killedAfterMs ?? '— (finished)'} ms, ${result.words}`,
      );
      doubles += result.doubles;
      unsent += result.unsentSentAfterRestart;
      if (result.killedAfterMs !== null) killed += 1;
      await clearAfterRun(h, profileId, sandbox.baseUrl);
    }
  } finally {
    await h.close();
    await sandbox.close();
  }
  return {
    batch_doubles: doubles,
    batch_unsent_after_restart_sent: unsent,
    batch_kill_runs_killed_mid_send: killed,
  };
}
