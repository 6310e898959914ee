import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dataDirArgument,
  electronEnv,
  planLaunch,
  shouldDownloadElectron,
  startFlags,
  type LaunchFacts,
} from '../../../electron/shell/launch';
import { appLayout, defaultDataDir, sqliteBindingFor } from '../../../electron/transport/paths';

const pkg = '/repo/node_modules/electron';
const binary = join(pkg, 'dist', 'electron');

function facts(
  change: Partial<LaunchFacts> & { files?: Record<string, string> } = {},
): LaunchFacts {
  const files: Record<string, string> = change.files ?? {
    [pkg]: '',
    [join(pkg, 'path.txt')]: 'electron',
    [binary]: '',
  };
  return {
    platform: 'linux',
    env: { DISPLAY: ':0' },
    electronPackageDir: pkg,
    exists: (p) => p in files,
    readText: (p) => files[p] ?? null,
    runs: () => true,
    isRoot: false,
    ...change,
  };
}

describe('npm start: fetching the Electron binary on first use', () => {
  const missing = { files: { [pkg]: '' } };
  it('downloads where a window could open and nothing switched the download off', () => {
    expect(shouldDownloadElectron(facts(missing))).toBe(true);
    expect(shouldDownloadElectron(facts({ ...missing, platform: 'win32', env: {} }))).toBe(true);
  });
  it('does not download when the binary is there, switched off, headless or as root', () => {
    expect(shouldDownloadElectron(facts())).toBe(false);
    const skip = { DISPLAY: ':0', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
    expect(shouldDownloadElectron(facts({ ...missing, env: skip }))).toBe(false);
    expect(shouldDownloadElectron(facts({ ...missing, env: {} }))).toBe(false);
    expect(shouldDownloadElectron(facts({ ...missing, isRoot: true }))).toBe(false);
    const browser = { DISPLAY: ':0', STRATEGY_DESK_BROWSER: '1' };
    expect(shouldDownloadElectron(facts({ ...missing, env: browser }))).toBe(false);
  });
});

describe('npm start: Electron or the browser host', () => {
  it('launches Electron when its binary is there, runs and has a display', () => {
    expect(planLaunch(facts())).toEqual({ kind: 'electron', executable: binary });
  });

  it('says the binary was never downloaded, naming ELECTRON_SKIP_BINARY_DOWNLOAD', () => {
    const plan = planLaunch(
      facts({ files: { [pkg]: '' }, env: { DISPLAY: ':0', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } }),
    );
    expect(plan).toEqual({
      kind: 'browser-host',
      reason:
        'Electron is not available here (no binary downloaded: ELECTRON_SKIP_BINARY_DOWNLOAD): opening the browser host instead',
    });
  });

  it.each<[string, Partial<LaunchFacts> & { files?: Record<string, string> }, RegExp]>([
    ['no electron package', { files: {} }, /the electron package is not installed/],
    ['no path.txt', { files: { [pkg]: '' } }, /no binary downloaded: .*path\.txt is missing/],
    [
      'a missing binary',
      { files: { [pkg]: '', [join(pkg, 'path.txt')]: 'electron' } },
      /no binary at/,
    ],
    ['no display on Linux', { env: {} }, /no display/],
    ['root on Linux', { isRoot: true }, /running as root/],
    ['a binary that does not run', { runs: () => false }, /does not run on this machine/],
    [
      'the browser asked for',
      { env: { DISPLAY: ':0', STRATEGY_DESK_BROWSER: '1' } },
      /STRATEGY_DESK_BROWSER/,
    ],
  ])('opens the browser host with %s', (_name, change, reason) => {
    const plan = planLaunch(facts(change));
    expect(plan.kind).toBe('browser-host');
    expect(plan.kind === 'browser-host' && plan.reason).toMatch(reason);
    expect(plan.kind === 'browser-host' && plan.reason).toMatch(
      /^Electron is not available here \(.+\): opening the browser host instead$/,
    );
  });

  it('needs no DISPLAY on Windows or macOS, and accepts Wayland on Linux', () => {
    expect(planLaunch(facts({ platform: 'win32', env: {} })).kind).toBe('electron');
    expect(planLaunch(facts({ platform: 'darwin', env: {} })).kind).toBe('electron');
    expect(planLaunch(facts({ env: { WAYLAND_DISPLAY: 'wayland-0' } })).kind).toBe('electron');
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH like the electron package does', () => {
    const plan = planLaunch(
      facts({
        env: { DISPLAY: ':0', ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' },
        files: { [pkg]: '', '/opt/electron/electron': '' },
      }),
    );
    expect(plan).toEqual({ kind: 'electron', executable: '/opt/electron/electron' });
  });

  it('never passes ELECTRON_RUN_AS_NODE on to the app', () => {
    expect(electronEnv({ ELECTRON_RUN_AS_NODE: '1', PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });
});

describe('paths', () => {
  it('keeps the Electron build of better-sqlite3 apart from node_modules', () => {
    const layout = appLayout('/repo');
    expect(layout.electronSqliteBinding).toBe('/repo/build/native/electron/better_sqlite3.node');
    expect(layout.electronSqliteBinding).not.toContain('node_modules');
    const exists = (p: string) => p === layout.electronSqliteBinding;
    expect(sqliteBindingFor(layout, false, exists)).toBe(layout.electronSqliteBinding);
    expect(sqliteBindingFor(layout, false, () => false)).toBeUndefined();
    // Packaged: electron-builder rebuilt node_modules for Electron.
    expect(sqliteBindingFor(layout, true, exists)).toBeUndefined();
  });

  it('puts the data where each platform keeps app data', () => {
    expect(defaultDataDir('linux', {}, '/home/m')).toBe('/home/m/.config/strategy-desk');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/m')).toBe(
      '/x/cfg/strategy-desk',
    );
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: 'relative' }, '/home/m')).toBe(
      '/home/m/.config/strategy-desk',
    );
    expect(defaultDataDir('darwin', {}, '/Users/m')).toBe(
      '/Users/m/Library/Application Support/strategy-desk',
    );
    expect(
      defaultDataDir('win32', { APPDATA: 'C:\\Users\\m\\AppData\\Roaming' }, 'C:\\Users\\m'),
    ).toMatch(/Roaming.strategy-desk$/);
  });
});

describe('npm start -- --data-dir D: the data folder, for Electron and the browser host', () => {
  it('reads --data-dir in both spellings, relative to where npm start runs, and --port', () => {
    expect(startFlags(['--data-dir', 'desk-test'], '/home/m')).toEqual({
      dataDir: '/home/m/desk-test',
      port: '0',
    });
    expect(startFlags(['--data-dir=/tmp/desk', '--port', '5180'], '/home/m')).toEqual({
      dataDir: '/tmp/desk',
      port: '5180',
    });
    expect(startFlags([], '/home/m')).toEqual({ dataDir: null, port: '0' });
  });

  it('refuses an unknown flag or an empty folder, saying which', () => {
    expect(startFlags(['--data', 'x'], '/')).toEqual({
      error: expect.stringContaining("'--data'"),
    });
    expect(startFlags(['--data-dir='], '/')).toEqual({
      error: '--data-dir needs a folder, e.g. --data-dir ~/desk-test',
    });
  });

  it('hands the folder to the Electron app, which finds it among its arguments', () => {
    const electronArgv = ['/x/electron', '/repo/dist/electron/main.cjs', '--data-dir=/tmp/desk'];
    expect(dataDirArgument(electronArgv, '/')).toBe('/tmp/desk');
    expect(dataDirArgument(['StrategyDesk', '--data-dir', 'desk'], '/home/m')).toBe('/home/m/desk');
    expect(dataDirArgument(['StrategyDesk', '--no-sandbox'], '/')).toBeNull();
    expect(dataDirArgument(['StrategyDesk', '--data-dir='], '/')).toBeNull();
  });
});
