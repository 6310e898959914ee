/**
 * Builds the Electron main process and preload into dist/electron/ with esbuild:
 *   npx tsx scripts/build-electron.ts            main.cjs + preload.cjs
 *   npx tsx scripts/build-electron.ts --native   also builds better-sqlite3 and keytar for
 *                                                Electron's ABI into build/native/electron/
 * The native step (scripts/native-for-electron.ts) rebuilds a copy of each package with
 * @electron/rebuild, so node_modules keeps the Node build that `npm test` uses; the app loads the
 * Electron build through better-sqlite3's nativeBinding.
 */
import { build, type Plugin } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appLayout } from '../electron/transport/paths';
import {
  buildKeytarForElectron,
  buildNativeForElectron,
  buildSqliteForElectron,
} from './native-for-electron';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const layout = appLayout(root);

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
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
  const dependencies = ['dependencies', 'optionalDependencies'].flatMap((field) =>
    Object.keys((pkg[field] as Record<string, string> | undefined) ?? {}),
  );
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

export { buildKeytarForElectron, buildNativeForElectron, buildSqliteForElectron };

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  try {
    const out = await buildElectron();
    console.log(`Built ${out.main} and ${out.preload} in ${Date.now() - started} ms`);
    if (process.argv.includes('--native')) {
      for (const file of await buildNativeForElectron()) console.log(`Built ${file}`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
