import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/**
 * Where the end-to-end tests find a Chromium, the ways Playwright users expect: an environment
 * variable naming the executable, then the usual install locations of the platform, then the
 * browsers Playwright itself downloaded. The file system is passed in, so a unit test can lay
 * out a fake one.
 */
export interface FinderSystem {
  platform: NodeJS.Platform;
  arch: string;
  env: Record<string, string | undefined>;
  home: string;
  /** True for an existing file (not a folder). */
  isFile(path: string): boolean;
  /** The names in a folder; none when it does not exist. */
  list(path: string): string[];
}

export type ChromiumLookup =
  { found: true; path: string; source: string } | { found: false; why: string };

/** Variables naming the executable, in the order they are read. */
export const CHROMIUM_VARIABLES = ['CHROMIUM_PATH', 'PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH'] as const;

export function findChromium(system: FinderSystem): ChromiumLookup {
  for (const name of CHROMIUM_VARIABLES) {
    const path = system.env[name]?.trim();
    if (!path) continue;
    // A variable set on purpose that names nothing is a mistake to report, not to step over.
    if (!system.isFile(path))
      return { found: false, why: `${name} names ${path}, which is not a file` };
    return { found: true, path, source: `$${name}` };
  }
  const usual = usualLocations(system).find((path) => system.isFile(path));
  if (usual) return { found: true, path: usual, source: 'its usual install location' };
  const cache = playwrightCache(system);
  const cached = cache ? cachedExecutables(system, cache).find((p) => system.isFile(p)) : undefined;
  if (cached) return { found: true, path: cached, source: `Playwright's browsers in ${cache}` };
  return {
    found: false,
    why:
      `no Chromium found: set ${CHROMIUM_VARIABLES.join(' or ')} to its executable, install ` +
      `Chromium or Chrome, or run "npx playwright install chromium"`,
  };
}

/** The places a package manager or an installer puts Chromium (or Chrome), best first. */
export function usualLocations(system: FinderSystem): string[] {
  const { env, home } = system;
  switch (system.platform) {
    case 'darwin':
      return [
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        posix.join(home, 'Applications/Chromium.app/Contents/MacOS/Chromium'),
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        posix.join(home, 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
      ];
    case 'win32': {
      const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter(
        (r): r is string => !!r,
      );
      return [
        ...roots.map((r) => win32.join(r, 'Chromium', 'Application', 'chrome.exe')),
        ...roots.map((r) => win32.join(r, 'Google', 'Chrome', 'Application', 'chrome.exe')),
      ];
    }
    default:
      return [
        '/usr/bin/chromium',
        '/usr/bin/chromium-browser',
        // The snap's own binary: /snap/bin/chromium is a launcher that Playwright cannot drive.
        '/snap/chromium/current/usr/lib/chromium-browser/chrome',
        '/usr/lib/chromium/chromium',
        '/usr/bin/google-chrome-stable',
        '/usr/bin/google-chrome',
        '/opt/google/chrome/chrome',
      ];
  }
}

/** Playwright's download folder: PLAYWRIGHT_BROWSERS_PATH, else its per-platform cache. */
export function playwrightCache(system: FinderSystem): string | null {
  const { env, home } = system;
  const set = env.PLAYWRIGHT_BROWSERS_PATH?.trim();
  // "0" means inside node_modules/playwright-core, which this project does not populate.
  if (set && set !== '0') return set;
  switch (system.platform) {
    case 'darwin':
      return posix.join(home, 'Library', 'Caches', 'ms-playwright');
    case 'win32':
      return env.LOCALAPPDATA ? win32.join(env.LOCALAPPDATA, 'ms-playwright') : null;
    default:
      return posix.join(env.XDG_CACHE_HOME || posix.join(home, '.cache'), 'ms-playwright');
  }
}

/** The executables under Playwright's folder, newest revision first, full Chromium first. */
export function cachedExecutables(system: FinderSystem, cache: string): string[] {
  const join = system.platform === 'win32' ? win32.join : posix.join;
  const revision = (name: string) => Number(/-(\d+)$/.exec(name)?.[1] ?? -1);
  const folders = (prefix: string) =>
    system
      .list(cache)
      .filter((name) => name.startsWith(`${prefix}-`) && revision(name) >= 0)
      .sort((a, b) => revision(b) - revision(a) || a.localeCompare(b))
      .map((name) => join(cache, name));
  const inside = (layouts: string[][]) => (folder: string) =>
    layouts.map((parts) => join(folder, ...parts));
  const mac = system.arch === 'arm64' ? 'chrome-mac-arm64' : 'chrome-mac-x64';
  const layouts: Record<'full' | 'shell', string[][]> =
    system.platform === 'darwin'
      ? {
          full: [
            [
              mac,
              'Google Chrome for Testing.app',
              'Contents',
              'MacOS',
              'Google Chrome for Testing',
            ],
            ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
          ],
          shell: [[`chrome-headless-shell-${mac.slice(7)}`, 'chrome-headless-shell']],
        }
      : system.platform === 'win32'
        ? {
            full: [
              ['chrome-win64', 'chrome.exe'],
              ['chrome-win', 'chrome.exe'],
            ],
            shell: [['chrome-headless-shell-win64', 'chrome-headless-shell.exe']],
          }
        : {
            full: [
              [system.arch === 'arm64' ? 'chrome-linux-arm64' : 'chrome-linux64', 'chrome'],
              ['chrome-linux', 'chrome'],
            ],
            shell: [
              [
                system.arch === 'arm64'
                  ? 'chrome-headless-shell-linux-arm64'
                  : 'chrome-headless-shell-linux64',
                'chrome-headless-shell',
              ],
              ['chrome-linux', 'headless_shell'],
            ],
          };
  return [
    ...folders('chromium').flatMap(inside(layouts.full)),
    ...folders('chromium_headless_shell').flatMap(inside(layouts.shell)),
  ];
}

/** This machine, as the finder sees it. */
export function realSystem(): FinderSystem {
  return {
    platform: process.platform,
    arch: process.arch,
    env: process.env,
    home: homedir(),
    isFile: (path) => existsSync(path) && statSync(path).isFile(),
    list: (path) => (existsSync(path) && statSync(path).isDirectory() ? readdirSync(path) : []),
  };
}
