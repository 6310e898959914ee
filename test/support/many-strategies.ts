import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Desk } from '../../electron/core/desk';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, startSandbox } from '../../electron/sandbox';
import { buildDemoState } from '../../electron/sandbox/demo-data';
import { toStateFile, writeStateFile } from '../../electron/sandbox/persistence';
import { SandboxState, type StrategyRec } from '../../electron/sandbox/state';

/**
 * A sandbox holding `n` more strategies in Demo Capital, each a copy of Core Equity (its executed
 * version, orders and holdings under new ids), started from a state file: what the batch benches
 * and the many-strategy kill runs execute.
 */
export async function manyStrategiesSandbox(n: number, stepMs = 0) {
  const demo = buildDemoState();
  const core = demo.strategy(DEMO_STRATEGY_IDS.coreEquity)!;
  const copies: StrategyRec[] = [];
  for (let i = 0; i < n; i++) {
    const copy = structuredClone(core);
    copy.id = randomUUID();
    copy.name = `Copy ${String(i + 1).padStart(4, '0')}`;
    for (const version of copy.versions) {
      version.id = randomUUID();
      version.strategy_id = copy.id;
      for (const order of version.orders) order.id = randomUUID();
    }
    copies.push(copy);
  }
  const dir = mkdtempSync(join(tmpdir(), 'strategy-desk-many-'));
  const statePath = join(dir, 'state.json');
  const state = new SandboxState([...demo.strategies.values(), ...copies]);
  writeStateFile(
    statePath,
    toStateFile(
      {
        state,
        idempotency: new Map(),
        executionsAccepted: new Map(),
        tokenRequests: 0,
        apiRequests: 0,
      },
      new Date().toISOString(),
    ),
  );
  const sandbox = await startSandbox({ port: 0, stepMs, statePath });
  return {
    baseUrl: sandbox.baseUrl,
    ids: copies.map((c) => c.id),
    /** Each copy's executed version, to import so its target is known. */
    versionOf: new Map(copies.map((c) => [c.id, c.versions.at(-1)!.id])),
    async close() {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A profile of the demo manager on that sandbox, with every copy added and its version imported. */
export async function profileWithCopies(
  desk: Desk,
  sandbox: Awaited<ReturnType<typeof manyStrategiesSandbox>>,
): Promise<string> {
  const profile = await desk.profiles.create({
    name: 'Many',
    baseUrl: sandbox.baseUrl,
    clientId: DEMO_CLIENTS.manager.client_id,
    secret: DEMO_CLIENTS.manager.client_secret,
  });
  await desk.profiles.testConnection({ profileId: profile.id });
  const queue = [...sandbox.ids];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        await desk.strategies.add({ profileId: profile.id, strategyId: id });
        await desk.versions.import({
          profileId: profile.id,
          strategyId: id,
          versionId: sandbox.versionOf.get(id)!,
        });
      }
    }),
  );
  return profile.id;
}
