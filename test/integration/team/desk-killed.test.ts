import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from 'pg';
import { DeskError } from '../../../shared/views';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { builtInSandbox } from '../../../electron/sandbox/embedded';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { itWithPostgres as it, MEMBER_PASSWORD, useTeamDatabase } from '../../support/team-cluster';

/**
 * A desk of a team killed mid-send (docs/team.md, "No double across desks"), through the real
 * parts: alice's desk executes in a process of its own (execution/execute-child.ts) and is
 * SIGKILLed once the service executed, before its answer came; carol's desk, on the same team
 * database and sandbox, cannot execute the strategy while alice's claim stays, and it stays until
 * alice's desk restarts and reconciles the execution (sent again with its key, the service's
 * first answer replayed); then carol executes it once.
 */
const CORE = DEMO_STRATEGY_IDS.coreEquity;
const CHILD = fileURLToPath(new URL('../execution/execute-child.ts', import.meta.url));
const team = useTeamDatabase();
let alice: DeskHarness | undefined;
let carol: DeskHarness | undefined;
let aliceProfile: string;
let carolProfile: string;
let owner: Client;

beforeAll(async () => {
  const db = team.current;
  if (!db) return;
  await db.addMember('alice', ['drafter', 'trader']);
  await db.addMember('carol', ['drafter', 'trader']);
  owner = await db.owner();
  await owner.query("SELECT team.set_policy('none', interval '24 hours', 'owner')");
  alice = await openDeskHarness({ stepMs: 0 });
  aliceProfile = (await alice.desk.profiles.useSandbox({})).id;
  const baseUrl = alice.sandbox()!.baseUrl;
  // Carol's desk: its own data folder, the same service.
  carol = await openDeskHarness({
    stepMs: 0,
    sandbox: { ...builtInSandbox, start: async () => ({ baseUrl, close: async () => undefined }) },
  });
  carolProfile = (await carol.desk.profiles.useSandbox({})).id;
  for (const [h, profileId, member] of [
    [alice, aliceProfile, 'alice'],
    [carol, carolProfile, 'carol'],
  ] as const)
    await db.join(h.desk, profileId, member);
}, 120_000);
afterAll(async () => {
  await carol?.close();
  await alice?.close();
});

describe('a desk killed mid-send, reconciled across desks', () => {
  it('its claim stays until it restarts and reconciles; the other desk cannot execute meanwhile', async () => {
    const admin = (method: string, path: string, body?: unknown) =>
      sandboxAdmin(alice!.sandbox()!.baseUrl, method, path, body);
    const accepted = async () =>
      (
        (await admin('GET', '/sandbox/counters')) as {
          data: { executions_accepted: Record<string, number> };
        }
      ).data.executions_accepted[CORE] ?? 0;
    const claims = async () =>
      (
        await owner.query<{ desk: string; member: string }>(
          'SELECT desk, member::text FROM team.claims WHERE strategy_id = $1',
          [CORE],
        )
      ).rows;
    const aliceDesk = (await alice!.desk.team.get({ profileId: aliceProfile })).desk;
    /** Carol's desk executes a fresh draft of the strategy, confirmed as it is now. */
    const carolExecutes = async (weight: string) => {
      const draft = await carol!.desk.drafts.create({
        profileId: carolProfile,
        strategyId: CORE,
        name: `Carol ${weight}`,
        start: 'target',
      });
      await carol!.desk.drafts.saveRows({
        draftId: draft.id,
        rows: draft.rows.map((r, i) => ({ ...r, weight: i === 0 ? weight : r.weight })),
      });
      const { planKey } = await carol!.desk.versions.prepareExecute({ draftId: draft.id });
      return carol!.desk.versions.execute({
        draftId: draft.id,
        confirmation: { planKey, acknowledgedStale: true, againAfter: null },
      });
    };
    const refusedWhileHeld = async (weight: string) => {
      const error = await carolExecutes(weight).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DeskError);
      expect(error).toMatchObject({
        kind: 'team-refused',
        message: expect.stringContaining(`execution in flight from alice on desk ${aliceDesk}`),
      });
    };

    const before = await accepted();
    const draft = await alice!.desk.drafts.create({
      profileId: aliceProfile,
      strategyId: CORE,
      name: 'Killed',
      start: 'target',
    });
    await alice!.desk.drafts.saveRows({
      draftId: draft.id,
      rows: draft.rows.map((r, i) => ({ ...r, weight: i === 0 ? '6' : r.weight })),
    });
    await alice!.desk.close();
    // The 202's body arrives a byte at a time: the service has executed, the desk has no answer.
    await admin('PUT', '/sandbox/faults', { drip: { bytes: 1, interval_ms: 50 } });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CHILD, alice!.dataDir, alice!.sandbox()!.baseUrl, aliceProfile, draft.id],
      {
        env: {
          ...process.env,
          DESK_TEST_SECRET: DEMO_CLIENTS.manager.client_secret,
          DESK_TEST_TEAM_PASSWORD: MEMBER_PASSWORD,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    await expect.poll(accepted, { timeout: 20_000, interval: 20 }).toBe(before + 1);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    await admin('DELETE', '/sandbox/faults');

    // Alice's claim stays: carol's desk is refused, in words, and sends nothing.
    expect(await claims()).toEqual([{ desk: aliceDesk, member: 'alice' }]);
    await refusedWhileHeld('8');
    // Alice's desk restarted: the execution is unknown until she reconciles it; still held.
    const desk = await alice!.restart();
    const [entry] = desk.store.journal
      .listForStrategy(aliceProfile, CORE)
      .filter((e) => e.draftId === draft.id);
    expect(entry?.state).toBe('unknown');
    expect(await claims()).toEqual([{ desk: aliceDesk, member: 'alice' }]);
    await refusedWhileHeld('9');
    expect(await accepted()).toBe(before + 1);

    // Reconciled: sent again with its key, the service's first answer replayed, not a second.
    const { version } = await desk.versions.retryExecution({ journalId: entry!.id });
    expect(await accepted()).toBe(before + 1);
    await alice!.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
    );
    await expect.poll(claims, { timeout: 10_000 }).toEqual([]);
    const released = await owner.query<{ member: string; payload: string }>(
      "SELECT member::text, payload FROM team.activity WHERE kind = 'claim.released' ORDER BY seq DESC LIMIT 1",
    );
    expect(released.rows[0]!.member).toBe('alice');
    expect(JSON.parse(released.rows[0]!.payload)).toMatchObject({
      idempotencyKey: entry!.idempotencyKey,
      found: `ended: version ${version.id} COMPLETE`,
    });

    // Free again: carol's desk executes it, once.
    const outcome = await carolExecutes('10');
    expect(carol!.desk.store.journal.get(outcome.journalId)?.state).toBe('accepted');
    expect(await accepted()).toBe(before + 2);
  }, 120_000);
});
