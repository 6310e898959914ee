import { ModelFollowing } from '../models/following';
import { ModelLibrary } from '../models/library';
import type { Store } from '../store';
import type { StrategySync } from '../strategies/sync';
import type { VersionImport } from '../versions/import';

/** The demo model the built-in sandbox offers, with the strategies that follow it. */
export interface DemoModel {
  name: string;
  description: string;
  note: string;
  rows: readonly { symbol: string; weight: string }[];
  /** Each follower, added to the profile (with these versions imported) when it is not there. */
  followers: readonly { strategyId: string; versionIds: readonly string[] }[];
}

export interface DemoModelServices {
  store: Store;
  strategySync: Pick<StrategySync, 'read'>;
  versionImport: Pick<VersionImport, 'import'>;
}

/** Set once a profile was given the demo model, so a manager's later changes are never undone. */
export const demoModelSeededKey = (profileId: string) => `sandbox.demoModelSeeded.${profileId}`;

/**
 * Gives the sandbox profile the demo model and its followers, once: the followers missing from the
 * profile are added (the same flows as "Add strategy" and "Import version"), the model is created
 * and saved like a manager's (its revision in the activity log) unless a model of that name is in
 * the app already (never overwritten: the followers then follow it as it is), and each follower
 * following no model is assigned (an activity entry). Done is remembered per profile.
 */
export async function seedDemoModel(
  services: DemoModelServices,
  profileId: string,
  demo: DemoModel,
): Promise<void> {
  const { store, strategySync, versionImport } = services;
  const key = demoModelSeededKey(profileId);
  if (store.settings.get(key) !== null) return;
  for (const { strategyId, versionIds } of demo.followers) {
    if (store.strategies.get(profileId, strategyId)) continue;
    await strategySync.read(profileId, strategyId);
    for (const versionId of versionIds)
      await versionImport.import(profileId, strategyId, versionId);
  }
  // Made with the sandbox profile, before any screen shows it: nothing to announce to.
  const unannounced = () => undefined;
  const library = new ModelLibrary(store, unannounced);
  const following = new ModelFollowing(store, library, unannounced);
  store.transaction(() => {
    const existing = store.models.list().find((m) => m.name === demo.name);
    const modelId =
      existing?.id ??
      library.create({ name: demo.name, description: demo.description, start: { kind: 'empty' } })
        .id;
    if (!existing) library.saveRevision({ modelId, rows: demo.rows, note: demo.note, profileId });
    const free = demo.followers
      .map((f) => f.strategyId)
      .filter((id) => store.models.assignmentOf(profileId, id) === null);
    if (free.length > 0 && store.models.latest(modelId))
      following.assign({ profileId, modelId, strategyIds: free });
    store.settings.set(key, new Date().toISOString());
  });
}
