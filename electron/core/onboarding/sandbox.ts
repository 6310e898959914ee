import { join } from 'node:path';
import { DeskError } from '../../../shared/errors';
import { recordProfileCreated, recordProfileRemoved } from '../activity';
import type { Profile, Store } from '../store';
import type { SecretStore } from '../secrets';
import type { Execution } from '../execution/execute';
import type { Connections } from '../profiles/connections';
import type { StrategySync } from '../strategies/sync';
import type { VersionImport } from '../versions/import';
import { seedDemoAttention, type DemoAttention } from './demo-attention';
import { seedDemoModel, type DemoModel } from './demo-model';
import { seedDemoRestriction } from './demo-restriction';

/** The embedded sandbox while it runs. */
export interface EmbeddedSandbox {
  baseUrl: string;
  close(): Promise<void>;
}

export interface EmbeddedSandboxOptions {
  /** Where the sandbox keeps its state, so a version executed there survives an app restart. */
  statePath: string;
  /**
   * The port it had at the last launch (its profile's address): taken again when free, so the
   * profile and a manager's own requests keep working across restarts. Absent: any free port.
   */
  port?: number;
}

/**
 * "Start the built-in sandbox", as whoever starts the app provides it (electron/sandbox's
 * `builtInSandbox`): the desk knows only this shape, so the fake service never ships in the core.
 */
export interface BuiltInSandbox {
  start(options: EmbeddedSandboxOptions): Promise<EmbeddedSandbox>;
  /** What the sandbox profile starts with: the demo client and strategies, public demo data. */
  demo: {
    clientId: string;
    clientSecret: string;
    /** The demo strategies to add, each with the executed versions to import. */
    strategies: readonly { strategyId: string; versionIds: readonly string[] }[];
    /** The demo model its profile starts with (once), and the strategies following it. */
    model?: DemoModel;
    /** One of each signal of the attention queue, given to the new profile. */
    attention?: DemoAttention;
  };
}

/** The embedded sandbox's state file, beside the app's database. */
export function sandboxStatePath(dataDir: string): string {
  return join(dataDir, 'sandbox-state.json');
}

export interface SandboxProfileServices {
  /** The whole store: the profile's creation (or its undoing) is recorded in the activity log. */
  store: Store;
  secrets: SecretStore;
  connections: Connections;
  strategySync: Pick<StrategySync, 'read'>;
  versionImport: Pick<VersionImport, 'import'>;
  /** The one execution flow: the demo's own executions (demo-attention.ts) go through it. */
  execution: Pick<Execution, 'prepare' | 'executeDraft'>;
  /** Null when whoever started the app offers no built-in sandbox. */
  sandbox: BuiltInSandbox | null;
  /** The app's data folder: the sandbox's state file lives there. */
  dataDir: string;
}

/**
 * "Try the built-in sandbox": the sandbox runs in this process on a loopback port. The first
 * start picks a free port; every later start asks for the port of the profile's address again,
 * so the address stays the same across restarts. Only when another program holds that port does
 * the sandbox move, and its profile follows it. Its secret goes to the keychain like any other
 * profile's (it is public demo data).
 */
export class SandboxProfiles {
  private running: Promise<EmbeddedSandbox> | null = null;

  constructor(private readonly services: SandboxProfileServices) {}

  /** Restarts the sandbox for an existing sandbox profile (the address changed since). */
  async resume(): Promise<void> {
    const { store, secrets, connections } = this.services;
    const profile = store.profiles.list().find((p) => p.environment === 'sandbox');
    if (!profile) return;
    const { sandbox, demo } = await this.ensureRunning(portOf(profile.baseUrl));
    if (profile.baseUrl !== sandbox.baseUrl) {
      store.profiles.update(profile.id, { baseUrl: sandbox.baseUrl });
      await connections.reset(profile.id);
    }
    // Without a keychain the secret lived in memory only; the sandbox's is public demo data.
    if ((await secrets.get(profile.id)) === null) {
      await secrets.set(profile.id, demo.clientSecret);
      connections.credentialsChanged(profile.id);
    }
    // A sandbox profile made before the demo model existed gets it when first opened since.
    if (demo.model) {
      try {
        await seedDemoModel(this.services, profile.id, demo.model);
      } catch {
        // Not remembered as done: the next opening tries again; the profile works without it.
      }
    }
  }

  async use(): Promise<Profile> {
    const { store, secrets, connections, strategySync, versionImport } = this.services;
    const found = store.profiles.list().find((p) => p.environment === 'sandbox');
    if (found) {
      await this.resume();
      return store.profiles.get(found.id) ?? found;
    }
    const { sandbox, demo } = await this.ensureRunning();
    const profile = recordProfileCreated(store, () =>
      store.profiles.create({
        name: 'Built-in sandbox',
        baseUrl: sandbox.baseUrl,
        clientId: demo.clientId,
        environment: 'sandbox',
      }),
    );
    try {
      await secrets.set(profile.id, demo.clientSecret);
      const scopes = await connections.call(profile.id, (c) => c.testConnection());
      store.profiles.setGrantedScopes(profile.id, scopes);
      // The same flows as the manager's "Add strategy" and "Import version".
      for (const { strategyId, versionIds } of demo.strategies) {
        await strategySync.read(profile.id, strategyId);
        for (const versionId of versionIds)
          await versionImport.import(profile.id, strategyId, versionId);
      }
      if (demo.model) await seedDemoModel(this.services, profile.id, demo.model);
      // In force before the demo's executions: one of them overrides it.
      seedDemoRestriction(store, profile.id, () => new Date().toISOString());
      if (demo.attention)
        await seedDemoAttention(this.services, profile.id, demo.attention, sandbox.baseUrl, () =>
          new Date().toISOString(),
        );
    } catch (error) {
      // Half a sandbox profile is worse than none: the next click starts over.
      recordProfileRemoved(store, profile.id, () => store.profiles.delete(profile.id));
      await secrets.delete(profile.id);
      await connections.reset(profile.id);
      throw error;
    }
    return store.profiles.get(profile.id) ?? profile;
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = null;
    if (running) await (await running).close();
  }

  private async ensureRunning(port?: number): Promise<{
    sandbox: EmbeddedSandbox;
    demo: BuiltInSandbox['demo'];
  }> {
    const builtIn = this.services.sandbox;
    if (builtIn === null) {
      throw new DeskError({
        // Whoever started the app chose to offer none: nothing the manager did wrong.
        kind: 'internal',
        message: 'This build of the app has no built-in sandbox. Connect to your service instead.',
      });
    }
    this.running ??= builtIn
      .start({
        statePath: sandboxStatePath(this.services.dataDir),
        ...(port !== undefined && { port }),
      })
      .catch((error: unknown) => {
        this.running = null;
        throw error;
      });
    return { sandbox: await this.running, demo: builtIn.demo };
  }
}

/** The port of a loopback address the sandbox had ("http://127.0.0.1:41234"), if it names one. */
function portOf(baseUrl: string): number | undefined {
  try {
    const port = Number(new URL(baseUrl).port);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}
