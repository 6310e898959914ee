import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const CHILD = fileURLToPath(new URL('./execute-child.ts', import.meta.url));

type Crash = 'in-flight' | 'before-accepted' | 'after-accepted';
const CRASHES: { crash: Crash; when: string }[] = [
  { crash: 'in-flight', when: 'killed while the 202 is on its way (the service accepted)' },
  { crash: 'before-accepted', when: 'killed with the 202 in, before the journal said accepted' },
  { crash: 'after-accepted', when: 'killed right after the journal said accepted' },
];

const ended = (versionId: string) => (e: DeskEvent) =>
  e.type === 'version-status-changed' && e.versionId === versionId && e.ended;

/**
 * An execution interrupted by a crash and settled after the restart (by a retry with the same
 * key, or already accepted): its draft names the version exactly as after an uninterrupted
 * execution, so executing the draft again needs "Execute again", and the prediction is compared.
 * The process really dies (SIGKILL); the sandbox's counters say how often the service executed.
 */
describe('a draft executed across a crash is linked to its version', () => {
  let h: DeskHarness;
  let profileId: string;
  const admin = (method: string, path: string, body?: unknown) =>
    sandboxAdmin(h.sandbox()!.baseUrl, method, path, body);
  const accepted = async () =>
    (
      (await admin('GET', '/sandbox/counters')) as {
        data: { executions_accepted: Record<string, number> };
      }
    ).data.executions_accepted[CORE] ?? 0;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(CRASHES)(
    '$when',
    async ({ crash }) => {
      const before = await accepted();
      const draft = await h.desk.drafts.create({
        profileId,
        strategyId: CORE,
        name: `crash ${crash}`,
        start: 'target',
      });
      await h.desk.close();
      // The 202's body arrives a byte at a time: the service has executed, the app has no answer.
      if (crash === 'in-flight')
        await admin('PUT', '/sandbox/faults', { drip: { bytes: 1, interval_ms: 50 } });
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', CHILD, h.dataDir, h.sandbox()!.baseUrl, profileId, draft.id],
        {
          env: {
            ...process.env,
            DESK_TEST_SECRET: DEMO_CLIENTS.manager.client_secret,
            ...(crash !== 'in-flight' && { DESK_TEST_DIE: crash }),
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.once('exit', (_code, signal) => resolve(signal)),
      );
      if (crash === 'in-flight') {
        await expect.poll(accepted, { timeout: 20_000, interval: 20 }).toBe(before + 1);
        child.kill('SIGKILL');
      }
      // Killed, by the test or by itself at the named step: never an answer it printed.
      expect(await exited).toBe('SIGKILL');
      expect(output.trim()).toBe('sending');
      await admin('DELETE', '/sandbox/faults');
      expect(await accepted()).toBe(before + 1);

      const desk = await h.restart();
      const [entry] = desk.store.journal
        .listForStrategy(profileId, CORE)
        .filter((e) => e.draftId === draft.id);
      let versionId: string;
      if (crash === 'after-accepted') {
        expect(entry?.state).toBe('accepted');
        versionId = entry!.versionId!;
      } else {
        // Sent once, correctly: the retry with the same key finds the service's first answer.
        expect(entry?.state).toBe('unknown');
        versionId = (await desk.versions.retryExecution({ journalId: entry!.id })).version.id;
      }
      expect(await accepted()).toBe(before + 1);

      const drafts = await desk.drafts.list({ profileId, strategyId: CORE });
      expect(drafts.find((d) => d.id === draft.id)?.executedVersionId).toBe(versionId);
      expect((await desk.drafts.get({ draftId: draft.id })).executedVersionId).toBe(versionId);
      expect(
        await desk.versions.prediction({ profileId, strategyId: CORE, versionId }),
      ).toMatchObject({ versionId });
      await h.waitFor(ended(versionId));
      const preview = await desk.versions.prepareExecute({ draftId: draft.id });
      expect(preview.earlierVersionId).toBe(versionId);
      // Executing the same draft again is refused until the caller names that version.
      await expect(desk.versions.execute({ draftId: draft.id })).rejects.toMatchObject({
        kind: 'executed-before',
        details: { versionId },
      });
      await expect(
        desk.versions.execute({
          draftId: draft.id,
          confirmation: { planKey: preview.planKey, acknowledgedStale: false, againAfter: null },
        }),
      ).rejects.toMatchObject({ kind: 'executed-before', details: { versionId } });
      expect(await accepted()).toBe(before + 1);
    },
    90_000,
  );
});
