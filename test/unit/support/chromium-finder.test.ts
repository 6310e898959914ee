import { posix, win32 } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, type FinderSystem } from '../../support/chromium-finder';

/** A fake machine: these files exist (their folders are listed from them), nothing else. */
function machine(
  platform: NodeJS.Platform,
  files: string[],
  env: Record<string, string> = {},
  arch = 'x64',
): FinderSystem {
  const path = platform === 'win32' ? win32 : posix;
  const set = new Set(files);
  return {
    platform,
    arch,
    env,
    home:
      platform === 'win32' ? 'C:\\Users\\pat' : platform === 'darwin' ? '/Users/pat' : '/home/pat',
    isFile: (p) => set.has(p),
    list: (dir) => [
      ...new Set(
        files
          .filter((f) => f.startsWith(dir + path.sep))
          .map((f) => f.slice(dir.length + 1).split(path.sep)[0]!),
      ),
    ],
  };
}

describe('finding Chromium for the e2e tests', () => {
  it('takes the executable a variable names first, CHROMIUM_PATH before Playwright’s', () => {
    const files = ['/opt/mine/chrome', '/opt/pw/chrome', '/usr/bin/chromium'];
    expect(
      findChromium(
        machine('linux', files, {
          CHROMIUM_PATH: '/opt/mine/chrome',
          PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: '/opt/pw/chrome',
        }),
      ),
    ).toEqual({ found: true, path: '/opt/mine/chrome', source: '$CHROMIUM_PATH' });
    expect(
      findChromium(
        machine('linux', files, { PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: '/opt/pw/chrome' }),
      ),
    ).toEqual({
      found: true,
      path: '/opt/pw/chrome',
      source: '$PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH',
    });
  });

  it('says so when a variable names no file, instead of quietly using another Chromium', () => {
    const lookup = findChromium(
      machine('linux', ['/usr/bin/chromium'], { CHROMIUM_PATH: '/nowhere/chrome' }),
    );
    expect(lookup).toEqual({
      found: false,
      why: 'CHROMIUM_PATH names /nowhere/chrome, which is not a file',
    });
  });

  it('finds the usual install of each platform, the snap’s own binary on Linux', () => {
    const snap = '/snap/chromium/current/usr/lib/chromium-browser/chrome';
    expect(findChromium(machine('linux', ['/snap/bin/chromium', snap]))).toMatchObject({
      path: snap,
      source: 'its usual install location',
    });
    expect(findChromium(machine('linux', ['/usr/bin/chromium', snap]))).toMatchObject({
      path: '/usr/bin/chromium',
    });
    const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findChromium(machine('darwin', [mac]))).toMatchObject({ path: mac });
    const windows = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(
      findChromium(
        machine('win32', [windows], {
          LOCALAPPDATA: 'C:\\Users\\pat\\AppData\\Local',
          PROGRAMFILES: 'C:\\Program Files',
        }),
      ),
    ).toMatchObject({ path: windows });
  });

  it('falls back to Playwright’s own downloads, newest revision first', () => {
    const cache = '/home/pat/.cache/ms-playwright';
    const linux = machine('linux', [
      `${cache}/chromium-1105/chrome-linux/chrome`,
      `${cache}/chromium-1187/chrome-linux64/chrome`,
      `${cache}/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell`,
    ]);
    expect(findChromium(linux)).toEqual({
      found: true,
      path: `${cache}/chromium-1187/chrome-linux64/chrome`,
      source: `Playwright's browsers in ${cache}`,
    });

    const macCache = '/Users/pat/Library/Caches/ms-playwright';
    const macApp = `${macCache}/chromium-1187/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing`;
    expect(findChromium(machine('darwin', [macApp], {}, 'arm64'))).toMatchObject({ path: macApp });

    const local = 'C:\\Users\\pat\\AppData\\Local';
    const winExe = `${local}\\ms-playwright\\chromium-1187\\chrome-win64\\chrome.exe`;
    expect(findChromium(machine('win32', [winExe], { LOCALAPPDATA: local }))).toMatchObject({
      path: winExe,
    });

    const moved = machine('linux', ['/srv/pw/chromium-1187/chrome-linux64/chrome'], {
      PLAYWRIGHT_BROWSERS_PATH: '/srv/pw',
    });
    expect(findChromium(moved)).toMatchObject({
      path: '/srv/pw/chromium-1187/chrome-linux64/chrome',
    });
  });

  it('explains how to get one when there is none', () => {
    const lookup = findChromium(machine('darwin', []));
    expect(lookup.found).toBe(false);
    expect(!lookup.found && lookup.why).toMatch(/CHROMIUM_PATH .*npx playwright install chromium/);
  });
});
