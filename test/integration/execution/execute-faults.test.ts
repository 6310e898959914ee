import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import type { JournalEntry } from '../../../electron/core/store';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const AMBIGUOUS_KINDS = ['network', 'timeout', 'server', 'bad-response'];
type Fault = 'none' | 'drop-after-commit' | '5xx' | 'timeout' | 'drop-then-5xx';
const FAULTS: Fault[] = ['none', 'drop-after-commit', '5xx', 'timeout', 'drop-then-5xx'];

/** A small seeded generator, so a failing run can be replayed from its seed. */
function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function accepted(h: DeskHarness): Promise<number> {
  const counters = (await sandboxAdmin(h.sandbox()!.baseUrl, 'GET', '/sandbox/counters')) as {
    data: { executions_accepted: Record<string, number> };
  };
  return counters.data.executions_accepted[CORE] ?? 0;
}

async function setFault(h: DeskHarness, fault: Fault): Promise<void> {
  const base = h.sandbox()!.baseUrl;
  await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
  const faults: Record<Fault, object> = {
    none: {},
    'drop-after-commit': { drop_after_commit_next: 1 },
    '5xx': { fail_next: 1, fail_status: 503 },
    // Longer than the client waits: the service commits after the client gave up.
    timeout: { latency_ms: 400 },
    'drop-then-5xx': { drop_after_commit_next: 1 },
  };
  await sandboxAdmin(base, 'PUT', '/sandbox/faults', faults[fault]);
}

/** Retries every unknown execution (same key) until each has a definite outcome. */
async function resolveUnknown(h: DeskHarness, profileId: string): Promise<string[]> {
  const versionIds: string[] = [];
  for (let round = 0; round < 5; round++) {
    const unknown = (await h.desk.versions.journal({ profileId })).filter(
      (e) => e.state === 'unknown',
    );
    if (unknown.length === 0) return versionIds;
    for (const entry of unknown) {
      const outcome = await h.desk.versions
        .retryExecution({ journalId: entry.id })
        .catch((e: unknown) => e);
      if (!(outcome instanceof DeskError))
        versionIds.push((outcome as { version: { id: string } }).version.id);
    }
  }
  throw new Error('executions still unknown after 5 rounds of retries');
}

/**
 * What the journal recorded when the process died. A restart withdraws an armed entry never
 * marked sent (rejected, attempts 0; unknown after a restart of the computer) and turns a sent
 * one into unknown; the attempts counter tells them apart (it counts each time a request left).
 */
function outcomeAtKill(
  entry: JournalEntry | undefined,
): 'not journaled' | 'never left' | 'sent' | 'accepted' {
  if (!entry) return 'not journaled';
  if (entry.state === 'accepted') return 'accepted';
  if (entry.state === 'rejected' && entry.attempts === 0) return 'never left';
  expect(entry.state, `journal entry ${entry.id}`).toBe('unknown');
  return entry.attempts === 0 ? 'never left' : 'sent';
}

const ended = (versionId: string) => (e: DeskEvent) =>
  e.type === 'version-status-changed' && e.versionId === versionId && e.ended;

describe('execute under faults: one intended execution is accepted once, never twice', () => {
  let h: DeskHarness;
  let profileId: string;
  // One draft per intended execution: a draft that became a version is not sent again.
  const newDraft = async (name: string) =>
    (await h.desk.drafts.create({ profileId, strategyId: CORE, name, start: 'target' })).id;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0, clientOptions: { timeouts: { requestMs: 200 } } });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('200 randomized fault runs, checked against the sandbox counters', async () => {
    const seed = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000);
    const random = mulberry32(seed);
    const tally: Record<string, number> = {};
    for (let run = 0; run < 200; run++) {
      const fault = FAULTS[Math.floor(random() * FAULTS.length)]!;
      tally[fault] = (tally[fault] ?? 0) + 1;
      const before = await accepted(h);
      const draftId = await newDraft(`run ${run}`);
      await setFault(h, fault);
      const versionIds: string[] = [];
      try {
        versionIds.push((await h.desk.versions.execute({ draftId })).version.id);
      } catch (error) {
        expect(error, `run ${run} (${fault}, seed ${seed})`).toBeInstanceOf(DeskError);
        expect(AMBIGUOUS_KINDS, `run ${run} (${fault}, seed ${seed})`).toContain(
          (error as DeskError).kind,
        );
      }
      // The next attempt meets either no fault or a 5xx that leaves it unknown again.
      await setFault(h, 'none');
      if (fault === 'drop-then-5xx')
        await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', { fail_next: 1 });
      if (fault === 'timeout') await new Promise((r) => setTimeout(r, 450));
      versionIds.push(...(await resolveUnknown(h, profileId)));
      expect(await accepted(h), `run ${run} (${fault}, seed ${seed})`).toBe(before + 1);
      expect(new Set(versionIds).size, `run ${run} (${fault})`).toBe(1);
      await h.waitFor(ended(versionIds[0]!));
    }
    expect(Object.keys(tally).length).toBe(FAULTS.length);
  }, 240_000);

  it('a process killed mid-execute and restarted never executes twice', async () => {
    const child = fileURLToPath(new URL('./execute-child.ts', import.meta.url));
    const outcomes: Record<string, number> = {};
    for (let run = 0; run < 6; run++) {
      const before = await accepted(h);
      const draftId = await newDraft(`kill run ${run}`);
      const journaledBefore = new Set(
        h.desk.store.journal.listForStrategy(profileId, CORE).map((e) => e.id),
      );
      await h.desk.close();
      // Widen the window in which the kill can land while the request is in flight.
      await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 150 });
      const proc = spawn(
        process.execPath,
        ['--import', 'tsx', child, h.dataDir, h.sandbox()!.baseUrl, profileId, draftId],
        {
          env: { ...process.env, DESK_TEST_SECRET: DEMO_CLIENTS.manager.client_secret },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let output = '';
      proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
      await new Promise<void>((resolve) => {
        const started = setInterval(() => {
          if (!output.includes('sending')) return;
          clearInterval(started);
          setTimeout(() => {
            proc.kill('SIGKILL');
            resolve();
          }, run * 40);
        }, 5);
      });
      await new Promise((r) => proc.once('exit', r));
      await sandboxAdmin(h.sandbox()!.baseUrl, 'DELETE', '/sandbox/faults');
      await new Promise((r) => setTimeout(r, 200));
      await h.restart();
      const what = `kill run ${run}: ${output.trim()}`;
      const entry = h.desk.store.journal
        .listForStrategy(profileId, CORE)
        .find((e) => !journaledBefore.has(e.id));
      const recorded = outcomeAtKill(entry);
      outcomes[recorded] = (outcomes[recorded] ?? 0) + 1;
      if (recorded === 'not journaled' || recorded === 'never left') {
        // Nothing reached the service, and the restart sent nothing on its own.
        expect(await accepted(h), what).toBe(before);
        if (entry?.state === 'unknown')
          await h.desk.versions.dismissExecution({ journalId: entry.id });
        expect(await accepted(h), what).toBe(before);
      } else {
        // On the wire or answered: the service holds exactly one execution, found by the app.
        const versionIds = await resolveUnknown(h, profileId);
        expect(await accepted(h), what).toBe(before + 1);
        const versionId = versionIds[0] ?? h.desk.store.journal.get(entry!.id)!.versionId;
        expect(versionId, what).toBeTruthy();
        const known = await h.desk.versions.list({ profileId, strategyId: CORE });
        expect(
          known.map((v) => v.id),
          what,
        ).toContain(versionId);
      }
      const running = (await h.desk.strategies.get({ profileId, strategyId: CORE }))
        .runningVersionId;
      if (running) await h.waitFor(ended(running));
    }
    console.info(`kill outcomes: ${JSON.stringify(outcomes)}`);
  }, 120_000);
});
