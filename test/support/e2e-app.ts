import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import {
  buildRenderer,
  ensureRendererBuilt,
  RENDERER_DIST,
} from '../../electron/host/build-renderer';
import { startHost, type RunningHost } from '../../electron/host';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from './desk-harness';
import { launchChromium } from './e2e-browser';

/**
 * The app end to end: the real desk (SQLite in a temp folder, the keychain, the built-in
 * sandbox over loopback HTTP) behind the browser host, in Chromium, with the sandbox profile
 * already chosen. The host can be restarted on a restarted desk.
 */
export interface AppE2E {
  harness: DeskHarness;
  host: RunningHost;
  browser: Browser;
  profileId: string;
  /** Sets how long each rebalance step takes in the sandbox. */
  setStepMs(ms: number): Promise<void>;
  /** Closes host and desk and opens both again on the same data folder and sandbox. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The app at its first launch: no profile yet, the welcome screen. */
export interface BareAppE2E {
  harness: DeskHarness;
  host: RunningHost;
  browser: Browser;
  /** Closes host and desk and opens both again on the same data folder and sandbox. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

type AppOptions = Parameters<typeof openDeskHarness>[0] & {
  rendererDir?: string;
  /** Chromium draws scrollbars as the app's window does (see launchChromium). */
  scrollbars?: boolean;
};

/** dist/renderer as the run's global setup left it (built here only if something removed it). */
async function rendererBuilt(): Promise<string> {
  return existsSync(join(RENDERER_DIST, 'index.html')) ? RENDERER_DIST : buildRenderer();
}

export async function openBareAppE2E(options: AppOptions = {}): Promise<BareAppE2E> {
  const { rendererDir, scrollbars, ...deskOptions } = options;
  // The run's global setup built dist/renderer once; checking it again here would rebuild it (and
  // empty it) under another worker's page whenever a source is saved during the run.
  const staticDir = rendererDir ? await ensureRendererBuilt(rendererDir) : await rendererBuilt();
  const harness = await openDeskHarness(deskOptions);
  const serve = () =>
    startHost({
      handlers: harness.desk,
      subscribe: (listener) => harness.desk.subscribe(listener),
      staticDir,
    });
  let host = await serve();
  const browser = await launchChromium({ scrollbars });
  return {
    harness,
    get host() {
      return host;
    },
    browser,
    async restart() {
      await host.close();
      await harness.restart();
      host = await serve();
    },
    async close() {
      await browser.close();
      await host.close();
      await harness.close();
    },
  };
}

export async function openAppE2E(options: AppOptions = {}): Promise<AppE2E> {
  const app = await openBareAppE2E(options);
  const profile = await app.harness.desk.profiles.useSandbox({});
  return Object.assign(app, {
    profileId: profile.id,
    async setStepMs(ms: number) {
      await sandboxAdmin(app.harness.sandbox()!.baseUrl, 'PUT', '/sandbox/timing', {
        step_ms: ms,
      });
    },
  });
}
