/**
 * Builds the Electron main process and preload into dist/electron/ with esbuild:
 *   npx tsx scripts/build-electron.ts            main.cjs + preload.cjs
 *   npx tsx scripts/build-electron.ts --native   also builds better-sqlite3 and keytar for
 *                                                Electron's ABI into build/native/electron/
 * The native step compiles from a copy of each package, so node_modules keeps the Node build
 * that `npm test` uses; the app loads the Electron build through better-sqlite3's nativeBinding.
 */
import { build, type Plugin } from 'esbuild';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appLayout } from '../electron/shell/paths';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const layout = appLayout(root);

/** Electron's headers, for node-gyp; the machine building them needs this address reachable. */
export const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

export function electronVersion(): string {
  return String(readJson(join(root, 'node_modules', 'electron', 'package.json')).version);
}

/**
 * In the app, `keytar` resolves to the Electron build in build/native/electron when there is one
 * (development); otherwise to node_modules/keytar (the packaged app, rebuilt by electron-builder).
 */
const keytarForElectron: Plugin = {
  name: 'keytar-for-electron',
  setup(b) {
    b.onResolve({ filter: /^keytar$/ }, () => ({ path: 'keytar', namespace: 'keytar-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'keytar-shim' }, () => ({
      loader: 'js',
      contents: `
        const { existsSync } = require('node:fs');
        const { join } = require('node:path');
        const electronBuild = join(__dirname, '..', '..', 'build', 'native', 'electron', 'keytar.node');
        module.exports = existsSync(electronBuild) ? require(electronBuild) : require('keytar/lib/keytar.js');
      `,
    }));
  },
};

const common = { bundle: true, sourcemap: true, logLevel: 'warning', absWorkingDir: root } as const;

/** The preload: one CommonJS file that requires nothing but electron (a sandboxed preload). */
export async function buildPreload(outfile = layout.preloadBundle): Promise<string> {
  await build({
    ...common,
    entryPoints: [join(root, 'electron', 'preload.ts')],
    outfile,
    platform: 'browser',
    format: 'cjs',
    target: 'chrome130',
    minify: true,
    external: ['electron'],
  });
  return outfile;
}

/** The main process: CommonJS for Node 22; runtime dependencies stay in node_modules. */
export async function buildMain(outfile = layout.mainBundle): Promise<string> {
  const pkg = readJson(join(root, 'package.json'));
  const dependencies = Object.keys((pkg.dependencies as Record<string, string>) ?? {});
  await build({
    ...common,
    entryPoints: [join(root, 'electron', 'main.ts')],
    outfile,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    // Native modules and runtime dependencies stay in node_modules (asar-unpacked when packaged).
    external: ['electron', ...dependencies, 'keytar/*'],
    plugins: [keytarForElectron],
  });
  return outfile;
}

export async function buildElectron(): Promise<{ main: string; preload: string }> {
  mkdirSync(layout.electronOutDir, { recursive: true });
  const preload = await buildPreload();
  const main = await buildMain();
  return { main, preload };
}

/** npm passes .npmrc settings such as nodedir as env vars; those would point node-gyp at Node. */
function gypEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(key)) env[key] = value;
  }
  return env;
}

/** A binary that loads in this Node was built against Node's headers, not Electron's. */
function assertNotNodeAbi(file: string, pkgName: string): void {
  const probe = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(file)})`], {
    stdio: 'ignore',
  });
  if (probe.status === 0) {
    rmSync(file, { force: true });
    throw new Error(`${pkgName} was built against Node's headers, not Electron's; removed it.`);
  }
}

/** Builds one native package for Electron from a copy; returns the .node file. */
function rebuildForElectron(pkgName: string, binary: string, version: string): string {
  const source = join(root, 'node_modules', pkgName);
  // Inside the repository, so the copy still resolves node-addon-api and friends.
  const workRoot = join(root, 'build', 'native', '.work');
  mkdirSync(workRoot, { recursive: true });
  const work = mkdtempSync(join(workRoot, `${pkgName}-`));
  try {
    cpSync(source, work, {
      recursive: true,
      filter: (path) => !path.startsWith(join(source, 'build')),
    });
    const nodeGyp = join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    const result = spawnSync(
      process.execPath,
      [
        nodeGyp,
        'rebuild',
        '--release',
        `--target=${version}`,
        `--arch=${process.arch}`,
        `--dist-url=${ELECTRON_HEADERS_URL}`,
        `--devdir=${join(root, 'build', 'native', '.electron-gyp')}`,
      ],
      { cwd: work, stdio: 'inherit', env: gypEnv() },
    );
    const built = join(work, 'build', 'Release', binary);
    if (result.status !== 0 || !existsSync(built)) {
      throw new Error(
        `Could not build ${pkgName} for Electron ${version}: node-gyp needs Electron's headers from ` +
          `${ELECTRON_HEADERS_URL} (is the network reachable?), a C++ compiler and Python. ` +
          'npm test is unaffected; npm start falls back to the browser host where Electron cannot run.',
      );
    }
    mkdirSync(layout.nativeDir, { recursive: true });
    const target = join(layout.nativeDir, binary);
    copyFileSync(built, target);
    assertNotNodeAbi(target, pkgName);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** better-sqlite3 for Electron: the app cannot open its data without it. */
export function buildSqliteForElectron(): string {
  return rebuildForElectron('better-sqlite3', 'better_sqlite3.node', electronVersion());
}

/** keytar for Electron: without it the app keeps secrets for the session only, and says so. */
export function buildKeytarForElectron(): string {
  return rebuildForElectron('keytar', 'keytar.node', electronVersion());
}

export function buildNativeForElectron(): string[] {
  return [buildSqliteForElectron(), buildKeytarForElectron()];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  try {
    const out = await buildElectron();
    console.log(`Built ${out.main} and ${out.preload} in ${Date.now() - started} ms`);
    if (process.argv.includes('--native')) {
      for (const file of buildNativeForElectron()) console.log(`Built ${file}`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
