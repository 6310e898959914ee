import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from './demo-data';
import { DEMO_ATTENTION } from './demo-attention';
import { DEMO_MODEL } from './demo-model';
import { startSandbox } from './index';

/**
 * The port it had (its profile's address) when that port is free; another free port when a
 * program took it meanwhile (the desk then moves the profile to the new address).
 */
async function startEmbedded({ statePath, port }: { statePath: string; port?: number }) {
  if (port !== undefined && port > 0) {
    try {
      return await startSandbox({ port, statePath });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
    }
  }
  return startSandbox({ port: 0, statePath });
}

/**
 * The sandbox as the app embeds it for "Try the built-in sandbox": started on a free loopback
 * port with its state in a file, plus the demo facts the app's sandbox profile starts from.
 * Whoever starts the app hands this to the desk; the desk itself knows only the shape.
 */
export const builtInSandbox = {
  start: startEmbedded,
  demo: {
    clientId: DEMO_CLIENTS.manager.client_id,
    clientSecret: DEMO_CLIENTS.manager.client_secret,
    /** The demo strategies the profile starts with, and their executed versions to import. */
    strategies: [
      {
        strategyId: DEMO_STRATEGY_IDS.coreEquity,
        versionIds: [DEMO_VERSION_IDS.coreEquityExecuted],
      },
      {
        strategyId: DEMO_STRATEGY_IDS.dividendGrowth,
        versionIds: [DEMO_VERSION_IDS.dividendGrowthExecuted],
      },
      { strategyId: DEMO_STRATEGY_IDS.freshStart, versionIds: [] },
    ],
  },
} as const;

/**
 * The sandbox as the app ships it: its profile also starts with the demo model (demo-model.ts),
 * whose followers join the first three strategies. Tests built on the first three alone use
 * `builtInSandbox`; the desk harness's `demoModel` option chooses this one.
 */
export const builtInSandboxWithDemoModel = {
  ...builtInSandbox,
  demo: { ...builtInSandbox.demo, model: DEMO_MODEL },
};

/**
 * The sandbox as the app ships it, whole: its profile also starts with one of each signal of the
 * attention queue (demo-attention.ts). The desk harness's `demoAttention` option chooses it.
 */
export const builtInSandboxWithDemo = {
  ...builtInSandboxWithDemoModel,
  demo: { ...builtInSandboxWithDemoModel.demo, attention: DEMO_ATTENTION },
};

/**
 * The built-in sandbox that says where it runs each time it starts (at launch for an existing
 * sandbox profile, else on "Try the built-in sandbox"): for a manager who wants to ask it
 * directly, with curl or a script, with the demo client's public credentials.
 */
export function announcedSandbox(print: (line: string) => void): typeof builtInSandboxWithDemo {
  return {
    ...builtInSandboxWithDemo,
    start: async (options) => {
      const running = await builtInSandbox.start(options);
      const { clientId, clientSecret } = builtInSandbox.demo;
      print(
        `The built-in sandbox runs at ${running.baseUrl} (its public demo client: ` +
          `${clientId} / ${clientSecret}). A token, for curl: curl -X POST ` +
          `${running.baseUrl}/api/auth/token -H 'content-type: application/json' ` +
          `-d '{"client_id":"${clientId}","client_secret":"${clientSecret}"}'`,
      );
      return running;
    },
  };
}
