import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from './demo-data';
import { startSandbox } from './index';

/**
 * The sandbox as the app embeds it for "Try the built-in sandbox": started on a free loopback
 * port with its state in a file, plus the demo facts the app's sandbox profile starts from.
 * Whoever starts the app hands this to the desk; the desk itself knows only the shape.
 */
export const builtInSandbox = {
  start: ({ statePath }: { statePath: string }) => startSandbox({ port: 0, statePath }),
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
