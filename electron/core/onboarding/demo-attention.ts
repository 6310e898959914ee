import { addSchedule } from '../attention/set-aside';
import { snapshotAtRebalanceEnd } from '../attention/snapshot';
import type { Store } from '../store';
import type { StrategySync } from '../strategies/sync';
import type { VersionImport } from '../versions/import';

/**
 * What the built-in sandbox's profile starts with for the attention queue (docs/attention.md):
 * strategies to add, the strategies whose snapshot is taken as if the desk had seen their last
 * rebalance end, what then happens to them outside the app (the sandbox's admin routes), and the
 * strategies due from the day the profile is made.
 */
export interface DemoAttention {
  strategies: readonly { strategyId: string; versionIds: readonly string[] }[];
  snapshots: readonly string[];
  outsideEvents(baseUrl: string): Promise<void>;
  dueOnStart: readonly string[];
}

export interface DemoAttentionServices {
  store: Store;
  strategySync: Pick<StrategySync, 'read'>;
  versionImport: Pick<VersionImport, 'import'>;
}

/**
 * Gives the new sandbox profile one of each signal: the strategies added (the same flows as "Add
 * strategy" and "Import version"), each snapshot from a read through the one strategy read, the
 * outside events, the strategies read again (their holdings moved), and a schedule due today.
 */
export async function seedDemoAttention(
  services: DemoAttentionServices,
  profileId: string,
  demo: DemoAttention,
  baseUrl: string,
  now: () => string,
): Promise<void> {
  const { store, strategySync, versionImport } = services;
  for (const { strategyId, versionIds } of demo.strategies) {
    if (store.strategies.has(profileId, strategyId)) continue;
    await strategySync.read(profileId, strategyId);
    for (const versionId of versionIds)
      await versionImport.import(profileId, strategyId, versionId);
  }
  for (const strategyId of demo.snapshots) {
    await strategySync.read(profileId, strategyId);
    const ended = store.versions.latestExecuted(profileId, strategyId);
    if (ended)
      snapshotAtRebalanceEnd(
        store,
        { profileId, strategyId, versionId: ended.id, status: ended.status },
        now(),
      );
  }
  await demo.outsideEvents(baseUrl);
  for (const strategyId of demo.snapshots) await strategySync.read(profileId, strategyId);
  for (const strategyId of demo.dueOnStart)
    if (store.strategies.has(profileId, strategyId))
      addSchedule(
        store,
        { profileId, strategyId, cadence: 'date', onDate: now().slice(0, 10), cooldownDays: 0 },
        now(),
      );
}
