/**
 * The book's reads of many strategies, through the app against raw undici:
 * - refresh_all_200_vs_undici_ratio: refreshing 200 strategies through the desk (the profile's
 *   queue, the client's validation, storage in SQLite, the rows worked out, the events) against
 *   raw undici GETs of the same 200 answers at the same concurrency (4 loops of request() and
 *   body.json() on one keep-alive Agent). Goal: at least 0.8.
 * - bulk_add_500_vs_undici_ratio: the same for adding 500 new strategies from a pasted list
 *   (each addition an activity entry, committed with the WAL fsynced). Goal: at least 0.8.
 * The service is the sandbox in a process of its own, as a real service is on another machine,
 * answering each request after SERVICE_LATENCY_MS (a service in the same region answers in about
 * that; one across the internet in more): the figures say whether the app keeps up with the
 * service. The same two figures with no latency at all (`…_no_latency`, no goal) show the app's
 * own cost per strategy against the barest read there is, on loopback.
 * Each round runs both sides, in alternating order; a figure is the median over the rounds of the
 * ratio of wall-clock times within a round (baseline time / app time: 1 = as fast as raw undici).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import type { BookJob } from '../../shared/book/views';
import { createDesk, type Desk } from '../../electron/core/desk';
import { MemorySecretStore } from '../../electron/core/secrets';
import { DEMO_CLIENTS } from '../../electron/sandbox/demo-data';
import { sandboxAdmin } from '../support/desk-harness';
import { SERVICE_LATENCY_MS, startSandboxProcess } from '../support/sandbox-process';
import { median } from '../support/median';

const CONCURRENCY = 4;
const ROUNDS = 9;

async function createStrategies(baseUrl: string, count: number): Promise<string[]> {
  const answer = (await sandboxAdmin(baseUrl, 'POST', '/sandbox/strategies', {
    count,
    holdings: 8,
  })) as { data: { ids: string[] } };
  return answer.data.ids;
}

/** Resolves with the job once it has ended. */
function ended(desk: Desk, jobId: () => string | null): Promise<BookJob> {
  return new Promise((resolve) => {
    const stop = desk.subscribe((event) => {
      if (event.type !== 'book-job-changed' || event.job.id !== jobId()) return;
      if (event.job.state === 'running') return;
      stop();
      resolve(event.job);
    });
  });
}

export default async function bookReadsBench(): Promise<Record<string, number>> {
  const sandbox = await startSandboxProcess();
  const dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-bench-book-'));
  const secrets = new MemorySecretStore();
  const desk = await createDesk({ dataDir, secretStore: secrets });
  const agent = new Agent({ connections: CONCURRENCY });
  try {
    const { client_id, client_secret } = DEMO_CLIENTS.manager;
    const profile = await desk.profiles.create({
      name: 'Bench',
      baseUrl: sandbox.baseUrl,
      clientId: client_id,
      secret: client_secret,
    });
    const profileId = profile.id;
    const token = await fetch(`${sandbox.baseUrl}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id, client_secret }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const headers = { authorization: `Bearer ${token.access_token}`, accept: 'application/json' };
    const { origin } = new URL(sandbox.baseUrl);

    /** Raw undici: the same GETs, CONCURRENCY at a time. */
    async function raw(ids: readonly string[]): Promise<number> {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < ids.length) {
            const id = ids[next++]!;
            const res = await agent.request({
              origin,
              path: `/api/v1/strategies/${id}?include=positions`,
              method: 'GET',
              headers,
            });
            await res.body.json();
          }
        }),
      );
      return performance.now() - started;
    }

    async function appRefresh(ids: string[]): Promise<number> {
      let id: string | null = null;
      const done = ended(desk, () => id);
      const started = performance.now();
      id = (await desk.book.refresh({ profileId, selection: { kind: 'ids', strategyIds: ids } }))
        .id;
      const job = await done;
      if (job.done !== 200 || job.failed !== 0) throw new Error(`refresh: ${JSON.stringify(job)}`);
      return performance.now() - started;
    }

    async function appAdd(ids: readonly string[]): Promise<number> {
      let id: string | null = null;
      const done = ended(desk, () => id);
      const started = performance.now();
      id = (await desk.book.addMany({ profileId, text: ids.join('\n') })).id;
      const job = await done;
      if (job.outcomes?.added !== ids.length) throw new Error(`add: ${JSON.stringify(job)}`);
      return performance.now() - started;
    }

    // 200 strategies in the app; a warm-up of each side.
    const book = await createStrategies(sandbox.baseUrl, 200);
    await appAdd(book);
    await raw(book);
    await appRefresh(book);

    async function measure(latencyMs: number) {
      await sandboxAdmin(sandbox.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: latencyMs });
      const refreshRatios: number[] = [];
      const refreshTimes: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const first = r % 2 === 0;
        const base1 = first ? await raw(book) : 0;
        const app = await appRefresh(book);
        const base = first ? base1 : await raw(book);
        refreshRatios.push(base / app);
        refreshTimes.push(app);
      }
      // Adding: new strategies each round, read raw (the same 500) before or after.
      const addRatios: number[] = [];
      const addTimes: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const ids = await createStrategies(sandbox.baseUrl, 500);
        const first = r % 2 === 0;
        const base1 = first ? await raw(ids) : 0;
        const app = await appAdd(ids);
        const base = first ? base1 : await raw(ids);
        addRatios.push(base / app);
        addTimes.push(app);
      }
      console.log(
        `  service latency ${latencyMs} ms: refresh of 200 ${median(refreshTimes).toFixed(0)} ms, ` +
          `add of 500 ${median(addTimes).toFixed(0)} ms (medians of ${ROUNDS} rounds)`,
      );
      return {
        refresh: Number(median(refreshRatios).toFixed(3)),
        add: Number(median(addRatios).toFixed(3)),
      };
    }

    const real = await measure(SERVICE_LATENCY_MS);
    const bare = await measure(0);
    return {
      refresh_all_200_vs_undici_ratio: real.refresh,
      bulk_add_500_vs_undici_ratio: real.add,
      refresh_all_200_vs_undici_no_latency_ratio: bare.refresh,
      bulk_add_500_vs_undici_no_latency_ratio: bare.add,
    };
  } finally {
    await agent.close();
    await desk.close();
    sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
