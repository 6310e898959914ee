/**
 * `npm run package`: installers for this platform; `npm run package -- --dir`: the unpacked app.
 * Builds the main process, preload and renderer, then runs electron-builder with the arguments
 * given (electron-builder.yml; docs/packaging.md). electron-builder rebuilds the native modules
 * in node_modules for Electron; their Node builds are put back afterwards so `npm test` still runs.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectron } from './build-electron';
import { withoutNodeHeaderSettings } from './native-for-electron';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The Node builds of the native modules, which electron-builder's rebuild overwrites in place. */
export const NODE_BINARIES = [
  join('better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
  join('keytar', 'build', 'Release', 'keytar.node'),
];

function run(args: string[]): number {
  const env = withoutNodeHeaderSettings(process.env);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  return result.status ?? 1;
}

function main(): number {
  const built = run([
    join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--logLevel',
    'error',
  ]);
  if (built !== 0) return built;
  const saved = mkdtempSync(join(tmpdir(), 'desk-node-binaries-'));
  const kept = NODE_BINARIES.filter((file) => existsSync(join(root, 'node_modules', file)));
  for (const file of kept) {
    mkdirSync(dirname(join(saved, file)), { recursive: true });
    copyFileSync(join(root, 'node_modules', file), join(saved, file));
  }
  try {
    return run([require.resolve('electron-builder/cli.js'), ...process.argv.slice(2)]);
  } finally {
    for (const file of kept) {
      mkdirSync(dirname(join(root, 'node_modules', file)), { recursive: true });
      copyFileSync(join(saved, file), join(root, 'node_modules', file));
      // @electron/rebuild's note that this folder holds an Electron build: no longer true, and
      // left in place it would make the next packaging skip the rebuild.
      rmSync(join(root, 'node_modules', dirname(file), '.forge-meta'), { force: true });
    }
    rmSync(saved, { recursive: true, force: true });
  }
}

await buildElectron();
process.exit(main());
