/**
 * `npm run test:electron`: the real Electron app, driven by playwright-core (test/electron/).
 * Not part of `npm test`: it needs the Electron binary (downloaded by npm install unless
 * ELECTRON_SKIP_BINARY_DOWNLOAD is set) and, on Linux, a display (xvfb-run is used when there
 * is none). Says what is missing and exits non-zero rather than skipping.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectron } from '../../scripts/build-electron';
import { buildSqliteForElectron } from '../../scripts/native-for-electron';
import { findElectron, layout, root } from './electron-app';

function stop(message: string): never {
  console.error(`test:electron cannot run: ${message}`);
  process.exit(1);
}

const found = findElectron();
if ('missing' in found) {
  stop(
    `${found.missing}. Install it with "node node_modules/electron/install.js" ` +
      '(needs access to github.com), then run npm run test:electron again.',
  );
}

if (process.platform === 'linux' && process.getuid?.() === 0) {
  // Chromium runs its OS sandbox only for a normal user, and the test checks that sandbox.
  stop('Electron does not run as root with its sandbox on; run it as a normal user');
}

const needsDisplay =
  process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
if (needsDisplay) {
  const xvfb = spawnSync('sh', ['-c', 'command -v xvfb-run'], { encoding: 'utf8' });
  if (xvfb.status !== 0) stop('no display and no xvfb-run (Debian/Ubuntu: sudo apt install xvfb)');
  const again = spawnSync(
    'xvfb-run',
    [
      '-a',
      '-s',
      '-screen 0 1400x1000x24',
      process.execPath,
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
    ],
    { stdio: 'inherit', cwd: root },
  );
  process.exit(again.status ?? 1);
}

console.log('Building the main process, preload and renderer…');
await buildElectron();
const vite = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'],
  { stdio: 'inherit', cwd: root },
);
if (vite.status !== 0) stop('the renderer did not build (see above)');
if (!existsSync(layout.electronSqliteBinding)) {
  console.log('Building better-sqlite3 for Electron (once)…');
  await buildSqliteForElectron().catch((error: unknown) =>
    stop(error instanceof Error ? error.message : String(error)),
  );
}

const vitest = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--config',
    join(root, 'test', 'electron', 'vitest.config.ts'),
  ],
  { stdio: 'inherit', cwd: root },
);
process.exit(vitest.status ?? 1);
