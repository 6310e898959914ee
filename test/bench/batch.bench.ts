/**
 * The batch's figures (docs/batches.md, docs/testing.md), on a sandbox of 200 copies of Core
 * Equity through the real desk and SQLite:
 *
 * - batch_review_100_vs_reads_ratio: the review of 100 strategies (each read fresh, previewed,
 *   the batch stored) against the same 100 fresh reads alone (the known target's version and the
 *   strategy with its holdings, raw undici) at the same concurrency (4). Goal ≤ 1.25.
 * - batch_execute_100_vs_raw_ratio: sending 100 strategies through the one execution flow
 *   (checked again at send time, journaled, recorded in the activity log, followed) against raw
 *   execute requests of the same bodies to 100 other copies, at the same concurrency (2). Goal ≤ 1.5.
 */
import { randomUUID } from 'node:crypto';
import { openDeskHarness } from '../support/desk-harness';
import { manyStrategiesSandbox, profileWithCopies } from '../support/many-strategies';
import { call, executePath, tokenFor, versionPath } from '../support/sandbox-http';

async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export default async function batchBench(): Promise<Record<string, number>> {
  const sandbox = await manyStrategiesSandbox(200, 0);
  const h = await openDeskHarness({ stepMs: 0 });
  try {
    const profileId = await profileWithCopies(h.desk, sandbox);
    const [first] = sandbox.ids;
    const model = await h.desk.models.create({
      name: 'Bench model',
      start: { kind: 'strategy', profileId, strategyId: first! },
    });
    const rows = model.rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '17' } : r));
    const revisionId = (await h.desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;
    const token = await tokenFor(sandbox.baseUrl, 'manager');
    const reviewIds = sandbox.ids.slice(0, 100);
    const rawIds = sandbox.ids.slice(100, 200);

    // The same reads the review makes for each strategy, alone, raw.
    const reads = (ids: readonly string[]) =>
      pool(ids, 4, async (id) => {
        await call(
          sandbox.baseUrl,
          'GET',
          versionPath(id, sandbox.versionOf.get(id)!, 'orders,positions'),
          { token },
        );
        await call(sandbox.baseUrl, 'GET', `/api/v1/strategies/${id}?include=positions`, { token });
      });
    await reads(reviewIds); // warm-up
    const readsMs = Math.min(
      await timed(() => reads(reviewIds)),
      await timed(() => reads(reviewIds)),
    );
    let batchId = '';
    const reviewOnce = async () => {
      batchId = (await h.desk.batches.review({ profileId, revisionId, strategyIds: reviewIds })).id;
    };
    await reviewOnce(); // warm-up
    const reviewMs = Math.min(await timed(reviewOnce), await timed(reviewOnce));

    // Sending the last review's 100 through the one flow, then the same bodies raw to the others.
    const executeMs = await timed(async () => {
      await h.desk.batches.execute({
        batchId,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
      });
      await h.desk.batchFlow.sending(batchId);
    });
    // The batch's versions are followed once its sending is over: the raw baseline runs after
    // they have ended, on a desk as quiet as the one the batch started on.
    await h.waitFor(
      (e) => e.type === 'batch-progress' && e.batchId === batchId && e.summary.endedAt !== null,
      120_000,
    );
    const items = h.desk.store.batches.items(batchId);
    const accepted = items.filter((i) => i.state === 'accepted').length;
    if (accepted !== 100) throw new Error(`The bench's batch sent ${accepted} of 100.`);
    const bodies = items.map((i) => h.desk.store.journal.get(i.journalId!)!.requestBody);
    const rawMs = await timed(() =>
      pool(
        rawIds.map((id, i) => [id, bodies[i]!] as const),
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
    console.log(
      `  review ${reviewMs.toFixed(0)} ms vs reads ${readsMs.toFixed(0)} ms; execute ${executeMs.toFixed(0)} ms vs raw ${rawMs.toFixed(0)} ms`,
    );
    return {
      batch_review_100_vs_reads_ratio: Number((reviewMs / readsMs).toFixed(2)),
      batch_execute_100_vs_raw_ratio: Number((executeMs / rawMs).toFixed(2)),
    };
  } finally {
    await h.close();
    await sandbox.close();
  }
}
