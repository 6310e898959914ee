import type { DraftRow, VersionDetail } from '../../shared/views';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from './desk-harness';
import { startFakeService, type FakeService, type FakeServiceOptions } from './fake-service';

/**
 * A manager's desk (real SQLite, keychain, tracker) on a production profile whose service is the
 * fake service in front of the built-in sandbox: each test sets how the "production" service
 * answers and drives the whole flow, from adding a strategy to the version's end.
 */
export interface InteropDesk {
  harness: DeskHarness;
  fake: FakeService;
  profileId: string;
  /** Adds the strategy, makes a draft of `rows` and executes it; returns what execute returned. */
  execute(rows: DraftRow[], strategyId?: string): Promise<VersionDetail>;
  /** Waits until the version's rebalance ended, and returns its stored detail. */
  ended(versionId: string, strategyId?: string): Promise<VersionDetail>;
  close(): Promise<void>;
}

export const FRESH = DEMO_STRATEGY_IDS.freshStart;

export const row = (symbol: string, weight: string): DraftRow => ({
  symbol,
  weight,
  locked: false,
});

export async function openInteropDesk(
  options: Parameters<typeof openDeskHarness>[0] & { fake?: FakeServiceOptions } = {},
): Promise<InteropDesk> {
  const { fake: fakeOptions, ...deskOptions } = options;
  const harness = await openDeskHarness({ stepMs: 20, ...deskOptions });
  const sandbox = await harness.startSandbox();
  const fake = await startFakeService({ upstream: sandbox.baseUrl, ...fakeOptions });
  const profile = await harness.desk.profiles.create({
    name: 'Production',
    baseUrl: fake.baseUrl,
    clientId: DEMO_CLIENTS.manager.client_id,
    secret: DEMO_CLIENTS.manager.client_secret,
  });
  const profileId = profile.id;
  const desk = () => harness.desk;
  return {
    harness,
    fake,
    profileId,
    async execute(rows, strategyId = FRESH) {
      if (!desk().store.strategies.get(profileId, strategyId))
        await desk().strategies.add({ profileId, strategyId });
      const draft = await desk().drafts.create({
        profileId,
        strategyId,
        name: 'd',
        start: 'empty',
      });
      await desk().drafts.saveRows({ draftId: draft.id, rows });
      return (await desk().versions.execute({ draftId: draft.id })).version;
    },
    async ended(versionId, strategyId = FRESH) {
      await harness.waitFor(
        (e) => e.type === 'version-status-changed' && e.versionId === versionId && e.ended,
      );
      return desk().versions.get({ profileId, strategyId, versionId });
    },
    async close() {
      await harness.close();
      await fake.close();
    },
  };
}
