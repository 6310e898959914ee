/**
 * `npm start`: builds what is missing, then runs the Electron app; where Electron cannot run
 * (no binary, no display), says why in one line and serves the same app from the browser host.
 *   npm start -- --data-dir /some/folder   (Electron and the browser host alike)
 *   npm start -- --port 5180               (the browser host's port; it picks a free one by default)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir, appLayout } from '../electron/transport/paths';
import {
  electronEnv,
  planLaunch,
  shouldDownloadElectron,
  START_USAGE,
  startFlags,
  type LaunchFacts,
} from '../electron/shell/launch';
import { rendererIsStale } from '../electron/host/build-renderer';
import { buildElectron, buildKeytarForElectron, buildSqliteForElectron } from './build-electron';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const layout = appLayout(root);

const flags = startFlags(process.argv.slice(2), process.cwd());
if ('error' in flags) {
  console.error(`${flags.error}\n${START_USAGE}`);
  process.exit(2);
}
/** Null: the platform's per-user folder (Electron's userData, the host's default). */
const dataDirFlag = flags.dataDir;

/** The renderer is built when dist/renderer is older than its sources: the host's own rule. */
function buildRendererIfStale(): void {
  if (!rendererIsStale(layout.rendererDir)) return;
  console.log('Building the renderer…');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('The renderer did not build (see above); fix that, then run npm start again.');
    process.exit(1);
  }
}

function relay(child: ChildProcess): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const launchFacts: LaunchFacts = {
  platform: process.platform,
  env: process.env,
  electronPackageDir: join(root, 'node_modules', 'electron'),
  exists: existsSync,
  readText: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : null),
  runs: (executable) =>
    spawnSync(executable, ['--version'], {
      timeout: 15_000,
      env: electronEnv(process.env),
      stdio: 'ignore',
    }).status === 0,
  isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
};
if (shouldDownloadElectron(launchFacts)) {
  console.log('Downloading Electron (once)…');
  const install = join(root, 'node_modules', 'electron', 'install.js');
  // A failed or slow download is not fatal: the plan below then says why and uses the browser host.
  spawnSync(process.execPath, [install], { cwd: root, stdio: 'inherit', timeout: 600_000 });
}
const plan = planLaunch(launchFacts);

/** The Electron build of better-sqlite3, built once; null with the reason when it cannot be. */
async function electronSqliteProblem(): Promise<string | null> {
  if (existsSync(layout.electronSqliteBinding)) return null;
  console.log('Building better-sqlite3 and keytar for Electron (once; this takes a few minutes)…');
  const sqlite = await buildSqliteForElectron().then(
    () => null,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  if (sqlite !== null) return sqlite;
  // Not fatal: the app then keeps secrets for this session only and says so.
  await buildKeytarForElectron().catch((error: unknown) =>
    console.log(error instanceof Error ? error.message : String(error)),
  );
  return null;
}

const sqliteProblem = plan.kind === 'electron' ? await electronSqliteProblem() : null;
if (plan.kind === 'electron' && sqliteProblem === null) {
  buildRendererIfStale();
  await buildElectron();
  const env = electronEnv(process.env);
  const args = dataDirFlag === null ? [] : [`--data-dir=${dataDirFlag}`];
  relay(spawn(plan.executable, [layout.mainBundle, ...args], { cwd: root, stdio: 'inherit', env }));
} else {
  console.log(
    plan.kind === 'browser-host'
      ? plan.reason
      : `Electron is here but its database module is not (${sqliteProblem}): opening the browser host instead`,
  );
  buildRendererIfStale();
  const dataDir = dataDirFlag ?? defaultDataDir(process.platform, process.env, homedir());
  const port = flags.port;
  const cli = join(root, 'electron', 'host', 'cli.ts');
  if (!existsSync(cli)) {
    console.error(`The browser host is not there yet (${cli} is missing).`);
    process.exit(1);
  }
  // The same Node with tsx's loader, the way `npm run serve` runs it; the host prints its URL.
  relay(
    spawn(process.execPath, ['--import', 'tsx', cli, '--port', port, '--data-dir', dataDir], {
      cwd: root,
      stdio: 'inherit',
    }),
  );
}
