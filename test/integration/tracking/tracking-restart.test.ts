import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk, type DeskOptions } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import {
  DEMO_CLIENTS,
  DEMO_STRATEGY_IDS,
  DEMO_VERSION_IDS,
  startSandbox,
  type RunningSandbox,
} from '../../../electron/sandbox';
import { builtInSandbox } from '../../../electron/sandbox/embedded';

/**
 * A restart in the middle of a rebalance, with secrets kept for the session only: every
 * desk below starts with an empty secret store, as the app does after a restart without a
 * keychain. The version must still be followed to its end.
 */
const CORE = DEMO_STRATEGY_IDS.coreEquity;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function deskFolder(options: Partial<DeskOptions>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-restart-'));
  let desk: Desk | null = null;
  cleanups.push(async () => {
    await desk?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return async () => {
    await desk?.close();
    desk = await createDesk({
      dataDir,
      secretStore: new MemorySecretStore('No keychain in this test: secrets last one session.'),
      trackerBackoff: { initialMs: 10, factor: 1.5, maxMs: 100 },
      offlineProbeMs: 50,
      credentialsProbeMs: 60_000,
      ...options,
    });
    return desk;
  };
}

async function executeUnchanged(desk: Desk, profileId: string) {
  const draft = await desk.drafts.create({
    profileId,
    strategyId: CORE,
    name: 'd',
    start: 'target',
  });
  const { version } = await desk.versions.execute({ draftId: draft.id });
  return { profileId, strategyId: CORE, versionId: version.id };
}

const statusOf = async (
  desk: Desk,
  ref: { profileId: string; strategyId: string; versionId: string },
) => (await desk.versions.get(ref)).status;

describe('tracking resumes after every restart', () => {
  it('the built-in sandbox profile: new address and secret at each start, COMPLETE reached', async () => {
    const started: RunningSandbox[] = [];
    const open = deskFolder({
      // Like the app: the embedded sandbox comes up on a new free port, from its state file.
      sandbox: {
        ...builtInSandbox,
        start: async ({ statePath }) => {
          const sandbox = await startSandbox({ port: 0, statePath, stepMs: 1000 });
          started.push(sandbox);
          return { baseUrl: sandbox.baseUrl, close: () => sandbox.close() };
        },
      },
    });
    let desk = await open();
    const profileId = (await desk.profiles.useSandbox({})).id;
    const ref = await executeUnchanged(desk, profileId);
    expect(await statusOf(desk, ref)).toBe('PENDING');

    desk = await open();
    expect(started).toHaveLength(2);
    expect((await desk.profiles.list({}))[0]!.baseUrl).toBe(started[1]!.baseUrl);
    await expect.poll(() => statusOf(desk, ref), { timeout: 20_000 }).toBe('COMPLETE');
    // The status bar and the sidebar read the same: nothing running any more.
    expect((await desk.app.status({})).runningVersions).toBe(0);
    expect((await desk.strategies.get({ profileId, strategyId: CORE })).runningVersionId).toBe(
      null,
    );
  });

  it('a profile whose secret lasted one session: waits for the secret, then reaches COMPLETE', async () => {
    const sandbox = await startSandbox({ port: 0, stepMs: 300 });
    cleanups.push(() => sandbox.close());
    const open = deskFolder({});
    let desk = await open();
    const profile = await desk.profiles.create({
      name: 'Production',
      baseUrl: sandbox.baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret: DEMO_CLIENTS.manager.client_secret,
    });
    await desk.strategies.add({ profileId: profile.id, strategyId: CORE });
    // Its current target, so a draft starts from it.
    await desk.versions.import({
      profileId: profile.id,
      strategyId: CORE,
      versionId: DEMO_VERSION_IDS.coreEquityExecuted,
    });
    const ref = await executeUnchanged(desk, profile.id);

    desk = await open();
    // No secret this session: the version says what tracking waits for, instead of giving up.
    await expect
      .poll(async () => (await desk.versions.get(ref)).trackingProblem?.waitingFor, {
        timeout: 10_000,
      })
      .toBe('credentials');
    const waiting = await desk.versions.get(ref);
    expect(waiting.status).toBe('PENDING');
    expect(waiting.tracking).toBe(true);
    expect((await desk.app.status({})).runningVersions).toBe(1);

    await desk.profiles.update({
      profileId: profile.id,
      secret: DEMO_CLIENTS.manager.client_secret,
    });
    await expect.poll(() => statusOf(desk, ref), { timeout: 20_000 }).toBe('COMPLETE');
    expect((await desk.versions.get(ref)).trackingProblem).toBeNull();
    expect((await desk.app.status({})).runningVersions).toBe(0);
  });
});
