import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeskError } from '../../../shared/views';
import { createDesk, type Desk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

/** The desk is composed by whoever starts it: the built-in sandbox only when handed one. */
describe('the desk, composed from outside', () => {
  let dir: string | null = null;
  let desk: Desk | null = null;
  let h: DeskHarness | null = null;
  afterEach(async () => {
    await desk?.close();
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    desk = null;
    h = null;
    dir = null;
  });

  it('offers no built-in sandbox when none was handed in, and says so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'strategy-desk-compose-'));
    desk = await createDesk({ dataDir: dir, secretStore: new MemorySecretStore() });
    const refused = await desk.profiles.useSandbox({}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DeskError);
    expect((refused as DeskError).message).toMatch(/no built-in sandbox/);
    expect(await desk.profiles.list({})).toEqual([]);
  });

  it('sets the sandbox profile up with the demo strategies and their executed versions, imported', async () => {
    h = await openDeskHarness();
    const profile = await h.desk.profiles.useSandbox({});
    const strategies = await h.desk.strategies.list({ profileId: profile.id });
    expect(strategies.map((s) => s.id).sort()).toEqual(
      [
        DEMO_STRATEGY_IDS.coreEquity,
        DEMO_STRATEGY_IDS.dividendGrowth,
        DEMO_STRATEGY_IDS.freshStart,
      ].sort(),
    );
    const versions = await h.desk.versions.list({
      profileId: profile.id,
      strategyId: DEMO_STRATEGY_IDS.coreEquity,
    });
    expect(versions.map((v) => [v.id, v.origin])).toEqual([
      [DEMO_VERSION_IDS.coreEquityExecuted, 'imported'],
    ]);
  });
});
