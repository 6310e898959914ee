import { addSchedule } from '../attention/set-aside';
import { snapshotAtRebalanceEnd } from '../attention/snapshot';
import type { Execution } from '../execution/execute';
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
  /** A draft executed overriding a restriction by name: a restricted order once it ends. */
  restrictedExecution: DemoExecution & { override: DemoOverride };
  /** A draft executed while the sandbox loses the answer: an unknown outcome. */
  lostExecution: DemoExecution;
  loseNextAnswer(baseUrl: string): Promise<void>;
}

/** The restricted symbols overridden by name, with the note (as the confirmation sends them). */
interface DemoOverride {
  symbols: readonly string[];
  note: string;
}

/** A draft the demo makes and executes, as the manager would. */
interface DemoExecution {
  strategyId: string;
  draftName: string;
  rows: readonly { symbol: string; weight: string }[];
}

export interface DemoAttentionServices {
  store: Store;
  strategySync: Pick<StrategySync, 'read'>;
  versionImport: Pick<VersionImport, 'import'>;
  /** The one execution flow: the demo's drafts are confirmed and executed through it. */
  execution: Pick<Execution, 'prepare' | 'executeDraft'>;
}

/**
 * Gives the new sandbox profile one of each signal: the strategies added (the same flows as "Add
 * strategy" and "Import version"), each snapshot from a read through the one strategy read, the
 * outside events, the strategies read again (their holdings moved), a schedule due today, and
 * two drafts executed through the one execution flow (one overriding the demo's restriction,
 * which must be in force already; one whose answer the sandbox loses).
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
  // Followed as any execution is: the restricted order is found when its rebalance ends.
  await executeDemoDraft(services, profileId, demo.restrictedExecution, demo.restrictedExecution);
  await demo.loseNextAnswer(baseUrl);
  const lost = demo.lostExecution;
  await executeDemoDraft(services, profileId, lost).catch((error: unknown) => {
    // The answer lost is the point: only an execution journaled unknown is what was meant.
    const entry = store.journal
      .listInFlight(profileId)
      .find((e) => e.strategyId === lost.strategyId && e.state === 'unknown');
    if (!entry) throw error;
  });
  // The dropped connection told the profile offline; an answer tells it online again, and the
  // strategy shows what the service holds now.
  await strategySync.read(profileId, lost.strategyId);
}

/** Makes the draft and executes it as the manager does: confirmed, then sent with that plan. */
async function executeDemoDraft(
  { store, execution }: DemoAttentionServices,
  profileId: string,
  { strategyId, draftName, rows }: DemoExecution,
  restricted?: { override: DemoOverride },
): Promise<void> {
  const draftRows = rows.map((r) => ({ ...r, locked: false }));
  const draft = store.drafts.create({ profileId, strategyId, name: draftName, rows: draftRows });
  const preview = await execution.prepare({ profileId, strategyId, rows: draftRows });
  await execution.executeDraft(draft.id, {
    planKey: preview.planKey,
    acknowledgedStale: false,
    againAfter: null,
    ...(restricted && {
      restrictionOverride: {
        symbols: [...restricted.override.symbols],
        note: restricted.override.note,
      },
    }),
  });
}
