/**
 * The batch's figures (docs/batches.md, docs/testing.md), through the real desk and SQLite:
 *
 * - batch_review_100_vs_reads_ratio: the review of 100 strategies (each read fresh, previewed,
 *   the batch stored) against the same 100 fresh reads alone (the known target's version and the
 *   strategy with its holdings, raw undici) at the same concurrency (4). Goal ≤ 1.25.
 * - batch_execute_100_vs_raw_ratio: sending 100 strategies through the one execution flow
 *   (checked again at send time against a fresh read, journaled with the WAL on disk before each
 *   send, recorded in the activity log) against raw execute requests of bodies like theirs to
 *   100 other strategies, at the same concurrency (2). Goal ≤ 1.5.
 *
 * As in book-reads.bench.ts, the service is the sandbox in a process of its own answering each
 * request after SERVICE_LATENCY_MS (a service is on another machine): the figures say what the
 * manager waits for beyond the service. The same figures with no latency (`…_no_latency`, no
 * goal) show the app's own cost per strategy against the barest request there is, on loopback.
 * Each round runs both sides in alternating order; a figure is the median of the rounds' ratios
 * (app time / baseline time). Every strategy executed is a fresh one, its target known.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesk } from '../../electron/core/desk';
import { MemorySecretStore } from '../../electron/core/secrets';
import { DEMO_CLIENTS } from '../../electron/sandbox/demo-data';
import { sandboxAdmin } from '../support/desk-harness';
import { call, executePath, tokenFor, versionPath } from '../support/sandbox-http';
import { SERVICE_LATENCY_MS, startSandboxProcess } from '../support/sandbox-process';
import { median } from '../support/median';
import { nextEvent, pool, strategiesWithKnownTargets, timed } from './known-targets';

const SIZE = 100;
const REVIEW_ROUNDS = 5;
const EXECUTE_ROUNDS = 3;

export default async function batchBench(): Promise<Record<string, number>> {
  const sandbox = await startSandboxProcess();
  const dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-bench-batch-'));
  const desk = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
  try {
    const { client_id, client_secret } = DEMO_CLIENTS.manager;
    const { id: profileId } = await desk.profiles.create({
      name: 'Bench',
      baseUrl: sandbox.baseUrl,
      clientId: client_id,
      secret: client_secret,
    });
    const token = await tokenFor(sandbox.baseUrl, 'manager');
    const reviewIds = await strategiesWithKnownTargets(desk, sandbox.baseUrl, profileId, SIZE);
    // The model: the first strategy's target with one weight raised, so every strategy moves.
    const model = await desk.models.create({
      name: 'Bench model',
      start: { kind: 'strategy', profileId, strategyId: reviewIds[0]! },
    });
    const rows = model.rows.map((r, i) =>
      i === 0 ? { ...r, weight: `${Number(r.weight) + 1}` } : r,
    );
    const revisionId = (await desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;
    const versionOf = new Map(
      reviewIds.map((id) => [id, desk.store.versions.latestExecuted(profileId, id)!.id]),
    );

    // The same reads the review makes for each strategy, alone, raw.
    const reads = () =>
      pool(reviewIds, 4, async (id) => {
        await call(
          sandbox.baseUrl,
          'GET',
          versionPath(id, versionOf.get(id)!, 'orders,positions'),
          {
            token,
          },
        );
        await call(sandbox.baseUrl, 'GET', `/api/v1/strategies/${id}?include=positions`, { token });
      });
    const review = async (strategyIds: string[]) =>
      (await desk.batches.review({ profileId, revisionId, strategyIds })).id;
    const execute = async (batchId: string) => {
      const ended = nextEvent(
        desk,
        (e) => e.type === 'batch-progress' && e.batchId === batchId && e.summary.endedAt !== null,
      );
      const sendingMs = await timed(async () => {
        await desk.batches.execute({
          batchId,
          unticked: [],
          acknowledged: [],
          stopAtFirstFailure: false,
        });
        await desk.batchFlow.sending(batchId);
      });
      const items = desk.store.batches.items(batchId);
      const accepted = items.filter((i) => i.state === 'accepted').length;
      if (accepted !== SIZE) throw new Error(`The bench's batch sent ${accepted} of ${SIZE}.`);
      // Its versions are followed to their end: the next side starts on a quiet desk.
      await ended;
      return {
        sendingMs,
        bodies: items.map((i) => desk.store.journal.get(i.journalId!)!.requestBody),
      };
    };
    const raw = (ids: readonly string[], bodies: readonly string[]) =>
      timed(() =>
        pool(
          ids.map((id, i) => [id, bodies[i % bodies.length]!] as const),
          2,
          async ([id, body]) => {
            const answer = await call(sandbox.baseUrl, 'POST', executePath(id), {
              token,
              headers: { 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
              body,
            });
            if (answer.status !== 202) throw new Error(`raw execute answered ${answer.status}`);
          },
        ),
      );

    // Warm-up of each side; the bodies the raw side sends.
    await reads();
    await review(reviewIds);
    const warm = await strategiesWithKnownTargets(desk, sandbox.baseUrl, profileId, 2 * SIZE);
    const { bodies } = await execute(await review(warm.slice(0, SIZE)));
    await raw(warm.slice(SIZE), bodies);

    async function measure(latencyMs: number) {
      const fresh = await strategiesWithKnownTargets(
        desk,
        sandbox.baseUrl,
        profileId,
        EXECUTE_ROUNDS * 2 * SIZE,
      );
      await sandboxAdmin(sandbox.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: latencyMs });
      const reviewRatios: number[] = [];
      for (let r = 0; r < REVIEW_ROUNDS; r++) {
        const first = r % 2 === 0;
        const base1 = first ? await timed(reads) : 0;
        const app = await timed(() => review(reviewIds));
        const base = first ? base1 : await timed(reads);
        reviewRatios.push(app / base);
      }
      const executeRatios: number[] = [];
      const times: string[] = [];
      for (let r = 0; r < EXECUTE_ROUNDS; r++) {
        const round = fresh.slice(r * 2 * SIZE, (r + 1) * 2 * SIZE);
        const batchId = await review(round.slice(0, SIZE));
        const first = r % 2 === 0;
        const base1 = first ? await raw(round.slice(SIZE), bodies) : 0;
        const app = (await execute(batchId)).sendingMs;
        const base = first ? base1 : await raw(round.slice(SIZE), bodies);
        executeRatios.push(app / base);
        times.push(`${app.toFixed(0)}/${base.toFixed(0)}`);
      }
      await sandboxAdmin(sandbox.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 0 });
      console.log(
        `  service latency ${latencyMs} ms: review/reads ${reviewRatios.join(' ')}; ` +
          `execute/raw ms ${times.join(' ')}`,
      );
      return {
        review: Number(median(reviewRatios).toFixed(2)),
        execute: Number(median(executeRatios).toFixed(2)),
      };
    }

    const real = await measure(SERVICE_LATENCY_MS);
    const bare = await measure(0);
    return {
      batch_review_100_vs_reads_ratio: real.review,
      batch_execute_100_vs_raw_ratio: real.execute,
      batch_review_100_vs_reads_no_latency_ratio: bare.review,
      batch_execute_100_vs_raw_no_latency_ratio: bare.execute,
    };
  } finally {
    await desk.close();
    sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
