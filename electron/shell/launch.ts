import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * How `npm start` runs the app: Electron when its binary is there and can show a window,
 * otherwise the browser host, with the reason in one plain line.
 */
export type LaunchPlan =
  { kind: 'electron'; executable: string } | { kind: 'browser-host'; reason: string };

export interface LaunchFacts {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** node_modules/electron */
  electronPackageDir: string;
  exists: (path: string) => boolean;
  readText: (path: string) => string | null;
  /** Runs `<executable> --version`; true when it answered. Only asked once the file exists. */
  runs: (executable: string) => boolean;
  /** Chromium refuses to run as root unless its sandbox is turned off, which the app never does. */
  isRoot: boolean;
}

/**
 * Finds the Electron binary the way node_modules/electron/index.js does, without requiring that
 * module: requiring it starts a download when the binary is missing.
 */
export function electronExecutable(facts: LaunchFacts): { path: string } | { missing: string } {
  const pathFile = join(facts.electronPackageDir, 'path.txt');
  if (!facts.exists(facts.electronPackageDir)) {
    return { missing: 'the electron package is not installed' };
  }
  const relative = facts.readText(pathFile)?.trim() || null;
  const override = facts.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const path = join(override, relative ?? 'electron');
    return facts.exists(path) ? { path } : { missing: `no binary at ${path}` };
  }
  if (!relative) {
    const why = facts.env.ELECTRON_SKIP_BINARY_DOWNLOAD
      ? 'no binary downloaded: ELECTRON_SKIP_BINARY_DOWNLOAD'
      : 'no binary downloaded: node_modules/electron/path.txt is missing';
    return { missing: why };
  }
  const path = join(facts.electronPackageDir, 'dist', relative);
  return facts.exists(path) ? { path } : { missing: `no binary at ${path}` };
}

/**
 * Electron fetches its binary on first use, not at install. `npm start` does the same where a
 * window could open (a display, not root on Linux) and the download was not switched off.
 */
export function shouldDownloadElectron(facts: LaunchFacts): boolean {
  if (!facts.exists(facts.electronPackageDir)) return false;
  if (facts.exists(join(facts.electronPackageDir, 'path.txt'))) return false;
  if (facts.env.ELECTRON_SKIP_BINARY_DOWNLOAD || facts.env.ELECTRON_OVERRIDE_DIST_PATH)
    return false;
  if (facts.env.STRATEGY_DESK_BROWSER === '1') return false;
  if (facts.platform !== 'linux') return true;
  return !facts.isRoot && Boolean(facts.env.DISPLAY || facts.env.WAYLAND_DISPLAY);
}

export function planLaunch(facts: LaunchFacts): LaunchPlan {
  const found = electronExecutable(facts);
  const browser = (why: string): LaunchPlan => ({
    kind: 'browser-host',
    reason: `Electron is not available here (${why}): opening the browser host instead`,
  });
  if ('missing' in found) return browser(found.missing);
  if (facts.env.STRATEGY_DESK_BROWSER === '1') return browser('STRATEGY_DESK_BROWSER=1');
  if (facts.platform === 'linux' && !facts.env.DISPLAY && !facts.env.WAYLAND_DISPLAY) {
    return browser('no display: neither DISPLAY nor WAYLAND_DISPLAY is set');
  }
  if (facts.platform === 'linux' && facts.isRoot) {
    return browser('running as root, where Chromium would need its sandbox turned off');
  }
  if (!facts.runs(found.path)) return browser(`${found.path} does not run on this machine`);
  return { kind: 'electron', executable: found.path };
}

/** The environment for the Electron child: never ELECTRON_RUN_AS_NODE, whatever the shell had. */
export function electronEnv(
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const { ELECTRON_RUN_AS_NODE: _drop, ...rest } = env;
  return rest;
}

export const START_USAGE = [
  'Usage: npm start -- [--data-dir D] [--port N]',
  "  --data-dir D  the app's data folder (default: the platform's per-user folder), in Electron",
  '                and in the browser host alike',
  "  --port N      the browser host's port on 127.0.0.1 when Electron cannot run (0 = any free port)",
].join('\n');

/** The flags `npm start` takes (`--data-dir D` or `--data-dir=D`, `--port N`); a wrong one is an error. */
export function startFlags(
  argv: readonly string[],
  cwd: string,
): { dataDir: string | null; port: string } | { error: string } {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { 'data-dir': { type: 'string' }, port: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    const dataDir = values['data-dir'];
    if (dataDir !== undefined && dataDir.trim() === '')
      return { error: '--data-dir needs a folder, e.g. --data-dir ~/desk-test' };
    return {
      dataDir: dataDir === undefined ? null : resolve(cwd, dataDir),
      port: values.port ?? '0',
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * The data folder the Electron app was started with (`--data-dir=D` from npm start, or
 * `--data-dir D` typed after the app's name), else null. Chromium's own switches are ignored.
 */
export function dataDirArgument(argv: readonly string[], cwd: string): string | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--data-dir=')) return nonEmpty(arg.slice('--data-dir='.length), cwd);
    if (arg === '--data-dir') return nonEmpty(argv[i + 1] ?? '', cwd);
  }
  return null;
}

function nonEmpty(dir: string, cwd: string): string | null {
  return dir.trim() === '' ? null : resolve(cwd, dir);
}
