import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEMO_CLIENTS } from '../../electron/sandbox';
import type { Desk } from '../../electron/core/desk';
import { sandboxAdmin, type DeskHarness } from './desk-harness';
import { acceptedAtService, gained } from './batches';

const CHILD = fileURLToPath(new URL('../integration/batches/batch-child.ts', import.meta.url));

export interface KillRun {
  batchId: string | null;
  /** ms after "sending" when the child was killed (null: it finished first). */
  killedAfterMs: number | null;
  /** Strategies the service executed more than once in this run. */
  doubles: number;
  /** Strategies whose item was not sent before the kill, executed at the service after the restart. */
  unsentSentAfterRestart: number;
  /** Items sent (journaled) before the kill, and items left not sent. */
  sent: number;
  notSent: number;
  words: string;
}

/**
 * One kill-and-restart run of a batch: the harness's desk is closed, a child process reviews and
 * sends the batch and is SIGKILLed `delayMs` after it printed "sending"; the harness's desk is
 * opened again on the same folder, and what the service executed is compared with the batch.
 */
export async function killAndRestart(
  h: DeskHarness,
  profileId: string,
  revisionId: string,
  strategyIds: readonly string[],
  delayMs: number,
  options: {
    concurrency?: number;
    settleMs?: number;
    baseUrl?: string;
    /** Kills the child once this holds (polled) instead of `delayMs` after "sending". */
    killWhen?: () => boolean;
    /** Runs between the kill and the restart (the data folder is free). */
    beforeRestart?: () => void;
  } = {},
): Promise<KillRun> {
  const baseUrl = options.baseUrl ?? h.sandbox()!.baseUrl;
  const before = await acceptedAtService(baseUrl);
  await h.desk.close();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CHILD,
      h.dataDir,
      baseUrl,
      profileId,
      revisionId,
      String(options.concurrency ?? 2),
      ...strategyIds,
    ],
    {
      env: { ...process.env, DESK_TEST_SECRET: DEMO_CLIENTS.manager.client_secret },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  let killedAfterMs: number | null = null;
  const sending = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('sending\n')) resolve();
    }),
  );
  await Promise.race([sending, exited]);
  if (child.exitCode === null) {
    if (options.killWhen) await until(options.killWhen, () => child.exitCode !== null);
    else await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (child.exitCode === null && !out.includes('sent\n')) {
      killedAfterMs = delayMs;
      child.kill('SIGKILL');
    }
  }
  await exited;
  const batchId = /reviewed (\S+)/.exec(out)?.[1] ?? null;
  const atKill = await acceptedAtService(baseUrl);
  options.beforeRestart?.();
  const desk: Desk = await h.restart();
  // Whatever the restarted desk does on its own (resuming, following) has time to go out.
  await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 300));
  const after = await acceptedAtService(baseUrl);
  const items = batchId ? desk.store.batches.items(batchId) : [];
  const byRun = gained(before, after);
  const afterRestart = gained(atKill, after);
  const notSent = items.filter((i) => i.state === 'not-sent');
  const batch = batchId ? await desk.batches.get({ batchId }) : null;
  return {
    batchId,
    killedAfterMs,
    doubles: Object.values(byRun).filter((n) => n > 1).length,
    unsentSentAfterRestart:
      notSent.filter((i) => (afterRestart[i.strategyId] ?? 0) > 0).length +
      // Nothing at all goes out after the restart: a batch never resumes on its own.
      Object.keys(afterRestart).filter((id) => !notSent.some((i) => i.strategyId === id)).length,
    sent: items.filter((i) => ['accepted', 'refused', 'unknown'].includes(i.state)).length,
    notSent: notSent.length,
    words: batch?.words ?? '',
  };
}

/** Waits until `condition` holds, or `over` does (the child ended). */
async function until(condition: () => boolean, over: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition() && !over()) {
    if (Date.now() > deadline) throw new Error('The awaited moment of the batch never came.');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Leaves every strategy free for the next run: unclear executions dismissed, rebalances ended.
 * `serviceUrl` is the service the profile talks to (the harness's own sandbox unless given).
 */
export async function clearAfterRun(
  h: DeskHarness,
  profileId: string,
  serviceUrl = h.sandbox()?.baseUrl,
): Promise<void> {
  if (serviceUrl === undefined) throw new Error('clearAfterRun: no service to wait for.');
  for (const entry of h.desk.execution.inFlight(profileId))
    if (entry.state === 'unknown') h.desk.recovery.dismiss(entry.id);
  // The sandbox's rebalances too: one sent before a kill runs on unfollowed once dismissed, and
  // its holdings moving under the next review would make that review's sends outdated.
  const rebalancing = async () =>
    (
      (await sandboxAdmin(serviceUrl, 'GET', '/sandbox/strategies')) as {
        data: { rebalancing: boolean }[];
      }
    ).data.some((s) => s.rebalancing);
  const deadline = Date.now() + 20_000;
  while (
    (h.desk.store.versions.listActive({ profileId }).length > 0 || (await rebalancing())) &&
    Date.now() < deadline
  )
    await new Promise((resolve) => setTimeout(resolve, 50));
}
