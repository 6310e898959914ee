import { join } from 'node:path';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS, startSandbox } from '../../sandbox';
import type { Profile } from '../store';
import type { DeskContext, EmbeddedSandbox } from './context';
import { storeVersionRead } from './tracking';

export interface EmbeddedSandboxOptions {
  /** Where the sandbox keeps its state, so a version executed there survives an app restart. */
  statePath: string;
}

export type StartEmbeddedSandbox = (options: EmbeddedSandboxOptions) => Promise<EmbeddedSandbox>;

export const defaultStartSandbox: StartEmbeddedSandbox = ({ statePath }) =>
  startSandbox({ port: 0, statePath });

/** The embedded sandbox's state file, beside the app's database. */
export function sandboxStatePath(dataDir: string): string {
  return join(dataDir, 'sandbox-state.json');
}

/** The demo strategies the built-in sandbox profile starts with, and their executed versions. */
const DEMO_STRATEGIES = [
  { strategyId: DEMO_STRATEGY_IDS.coreEquity, versionIds: [DEMO_VERSION_IDS.coreEquityExecuted] },
  {
    strategyId: DEMO_STRATEGY_IDS.dividendGrowth,
    versionIds: [DEMO_VERSION_IDS.dividendGrowthExecuted],
  },
  { strategyId: DEMO_STRATEGY_IDS.freshStart, versionIds: [] },
];

/**
 * "Try the built-in sandbox": the sandbox runs in this process on a free
 * loopback port, so its profile's address is set anew at each start. Its
 * secret goes to the keychain like any other profile's.
 */
export class SandboxProfiles {
  private running: Promise<EmbeddedSandbox> | null = null;

  constructor(
    private readonly ctx: DeskContext,
    private readonly start: StartEmbeddedSandbox,
    /** The app's data folder: the sandbox's state file lives there. */
    private readonly dataDir: string,
  ) {}

  /** Restarts the sandbox for an existing sandbox profile (the address changed since). */
  async resume(): Promise<void> {
    const profile = this.ctx.store.profiles.list().find((p) => p.environment === 'sandbox');
    if (!profile) return;
    const sandbox = await this.ensureRunning();
    if (profile.baseUrl !== sandbox.baseUrl) {
      this.ctx.store.profiles.update(profile.id, { baseUrl: sandbox.baseUrl });
      await this.ctx.connections.reset(profile.id);
    }
    // Without a keychain the secret lived in memory only; the sandbox's is public demo data.
    if ((await this.ctx.secrets.get(profile.id)) === null) {
      await this.ctx.secrets.set(profile.id, DEMO_CLIENTS.manager.client_secret);
      this.ctx.connections.credentialsChanged(profile.id);
    }
  }

  async use(): Promise<Profile> {
    const found = this.ctx.store.profiles.list().find((p) => p.environment === 'sandbox');
    if (found) {
      await this.resume();
      return this.ctx.store.profiles.get(found.id) ?? found;
    }
    const sandbox = await this.ensureRunning();
    const profile = this.ctx.store.profiles.create({
      name: 'Built-in sandbox',
      baseUrl: sandbox.baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      environment: 'sandbox',
    });
    try {
      await this.ctx.secrets.set(profile.id, DEMO_CLIENTS.manager.client_secret);
      const scopes = await this.ctx.connections.call(profile.id, (c) => c.testConnection());
      this.ctx.store.profiles.setGrantedScopes(profile.id, scopes);
      for (const demo of DEMO_STRATEGIES) {
        const strategy = await this.ctx.connections.call(profile.id, (c) =>
          c.getStrategy(demo.strategyId, { includePositions: true }),
        );
        this.ctx.store.strategies.upsert(profile.id, strategy, { syncedAt: this.ctx.now() });
        for (const versionId of demo.versionIds) {
          const version = await this.ctx.connections.call(profile.id, (c) =>
            c.getVersion(demo.strategyId, versionId, { orders: true, positions: true }),
          );
          storeVersionRead(this.ctx.store, profile.id, version, {
            origin: 'imported',
            syncedAt: this.ctx.now(),
          });
        }
      }
    } catch (error) {
      // Half a sandbox profile is worse than none: the next click starts over.
      this.ctx.store.profiles.delete(profile.id);
      await this.ctx.secrets.delete(profile.id);
      await this.ctx.connections.reset(profile.id);
      throw error;
    }
    return this.ctx.store.profiles.get(profile.id) ?? profile;
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = null;
    if (running) await (await running).close();
  }

  private ensureRunning(): Promise<EmbeddedSandbox> {
    this.running ??= this.start({ statePath: sandboxStatePath(this.dataDir) }).catch(
      (error: unknown) => {
        this.running = null;
        throw error;
      },
    );
    return this.running;
  }
}
