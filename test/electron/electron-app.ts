import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication } from 'playwright-core';
import { electronEnv, electronExecutable } from '../../electron/shell/launch';
import { appLayout } from '../../electron/transport/paths';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const layout = appLayout(root);

/** The Electron executable from node_modules/electron, or why there is none. */
export function findElectron(): { path: string } | { missing: string } {
  return electronExecutable({
    platform: process.platform,
    env: process.env,
    electronPackageDir: join(root, 'node_modules', 'electron'),
    exists: existsSync,
    readText: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : null),
    runs: () => true,
    isRoot: false,
  });
}

export interface LaunchedApp {
  app: ElectronApplication;
  dataHome: string;
  close(): Promise<void>;
}

/** The dev app (the bundles in dist/, native modules built for Electron) with a fresh data folder. */
export async function launchApp(): Promise<LaunchedApp> {
  const found = findElectron();
  if ('missing' in found) throw new Error(found.missing);
  const dataHome = mkdtempSync(join(tmpdir(), 'desk-electron-'));
  // userData is <appData>/<app folder>: appData follows these per platform.
  const env = {
    ...electronEnv(process.env),
    XDG_CONFIG_HOME: dataHome,
    APPDATA: dataHome,
    HOME: process.platform === 'darwin' ? dataHome : (process.env.HOME ?? dataHome),
  } as Record<string, string>;
  const app = await _electron.launch({
    executablePath: found.path,
    args: [layout.mainBundle],
    cwd: root,
    env,
    timeout: 60_000,
  });
  return {
    app,
    dataHome,
    async close() {
      await app.close();
      rmSync(dataHome, { recursive: true, force: true });
    },
  };
}
