import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { createDesk, type Desk } from '../../../electron/core/desk';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { builtInSandbox } from '../../../electron/sandbox/embedded';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;

async function accepted(h: DeskHarness): Promise<number> {
  const counters = (await sandboxAdmin(h.sandbox()!.baseUrl, 'GET', '/sandbox/counters')) as {
    data: { executions_accepted: Record<string, number> };
  };
  return counters.data.executions_accepted[CORE] ?? 0;
}

const ended = (versionId: string) => (e: DeskEvent) =>
  e.type === 'version-status-changed' && e.versionId === versionId && e.ended;

describe('simultaneous executes of one draft in one process', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    // Each request waits a little at the service, so the second call meets the first in flight.
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 15 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a second desk on the same data folder is refused, so races stay within one process', async () => {
    const sandbox = h.sandbox()!;
    const second: Promise<Desk> = createDesk({
      dataDir: h.dataDir,
      secretStore: h.secrets,
      sandbox: {
        ...builtInSandbox,
        start: async () => ({ baseUrl: sandbox.baseUrl, close: async () => undefined }),
      },
    });
    await expect(second).rejects.toThrow(/already running with the data folder/);
  });

  it('100 races: the service accepts exactly one per draft, the other call is refused', async () => {
    for (let race = 0; race < 100; race++) {
      const { id: draftId } = await h.desk.drafts.create({
        profileId,
        strategyId: CORE,
        name: `race ${race}`,
        start: 'target',
      });
      const before = await accepted(h);
      // The second call at once, or a few ms later while the first is on the wire.
      const delayMs = race % 10;
      const outcomes = await Promise.allSettled([
        h.desk.versions.execute({ draftId }),
        new Promise((r) => setTimeout(r, delayMs)).then(() => h.desk.versions.execute({ draftId })),
      ]);
      const label = `race ${race} (+${delayMs} ms)`;
      const done = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(done, label).toHaveLength(1);
      expect(refused, label).toHaveLength(1);
      expect(refused[0], label).toBeInstanceOf(DeskError);
      expect(refused[0], label).toMatchObject({
        kind: 'execution-blocked',
        message: expect.stringMatching(/already in flight/),
      });
      expect(await accepted(h), label).toBe(before + 1);
      const { version } = (done[0] as PromiseFulfilledResult<{ version: { id: string } }>).value;
      await h.waitFor(ended(version.id));
    }
  }, 120_000);

  it('a call arriving after the first was accepted sends nothing either, until it names that version', async () => {
    for (let race = 0; race < 20; race++) {
      const { id: draftId } = await h.desk.drafts.create({
        profileId,
        strategyId: CORE,
        name: `late ${race}`,
        start: 'target',
      });
      const before = await accepted(h);
      const first = await h.desk.versions.execute({ draftId });
      await h.waitFor(ended(first.version.id));
      // The same call again, as a second window or a repeated request would make it.
      await expect(h.desk.versions.execute({ draftId }), `race ${race}`).rejects.toMatchObject({
        kind: 'executed-before',
        details: { versionId: first.version.id },
      });
      expect(await accepted(h), `race ${race}`).toBe(before + 1);
    }
  }, 60_000);
});
