import { join } from 'node:path';
import { DATA_DIR_NAME } from './app-identity';

/**
 * Where the app and its build outputs live, relative to the repository (or the unpacked app).
 * The Electron build of better-sqlite3 sits apart from node_modules so that `npm test` (Node's
 * ABI) and `npm start` (Electron's ABI) never overwrite each other's binary.
 */
export interface AppLayout {
  root: string;
  rendererDir: string;
  electronOutDir: string;
  mainBundle: string;
  preloadBundle: string;
  nativeDir: string;
  electronSqliteBinding: string;
  electronKeytarBinding: string;
}

export function appLayout(root: string): AppLayout {
  const electronOutDir = join(root, 'dist', 'electron');
  const nativeDir = join(root, 'build', 'native', 'electron');
  return {
    root,
    rendererDir: join(root, 'dist', 'renderer'),
    electronOutDir,
    mainBundle: join(electronOutDir, 'main.cjs'),
    preloadBundle: join(electronOutDir, 'preload.cjs'),
    nativeDir,
    electronSqliteBinding: join(nativeDir, 'better_sqlite3.node'),
    electronKeytarBinding: join(nativeDir, 'keytar.node'),
  };
}

/**
 * The better-sqlite3 binary the app passes as `nativeBinding`: in a packaged app electron-builder
 * has rebuilt node_modules for Electron, so none; in development the separate Electron build when
 * it exists; undefined otherwise (and opening the store then says the module does not load).
 */
export function sqliteBindingFor(
  layout: AppLayout,
  isPackaged: boolean,
  exists: (path: string) => boolean,
): string | undefined {
  if (isPackaged) return undefined;
  return exists(layout.electronSqliteBinding) ? layout.electronSqliteBinding : undefined;
}

/**
 * The platform's per-user app-data folder for Strategy desk: the Electron app's userData and the
 * browser host's data dir are the same folder, so both see the same profiles and drafts.
 */
export function defaultDataDir(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
  home: string,
): string {
  if (platform === 'win32') {
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), DATA_DIR_NAME);
  }
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', DATA_DIR_NAME);
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(home, '.config'), DATA_DIR_NAME);
}
