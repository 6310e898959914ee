/**
 * better-sqlite3 and keytar built for Electron's ABI with @electron/rebuild, for `npm start` in a
 * source checkout. Each package is rebuilt in a staging copy under build/native/.work, so
 * node_modules keeps the Node build that `npm test` loads; the result lands in
 * build/native/electron/ (see docs/packaging.md). Packaged apps are rebuilt by electron-builder.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appLayout } from '../electron/transport/paths';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const layout = appLayout(root);

export function electronVersion(): string {
  const pkg = JSON.parse(
    readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
  ) as { version: string };
  return pkg.version;
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

/**
 * The environment without the .npmrc settings npm passes to scripts (nodedir and friends): with
 * them node-gyp would build against Node's headers instead of Electron's.
 */
export function withoutNodeHeaderSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([key]) => !/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(key),
    ),
  );
}

function forgetNodeHeaderSettings(): void {
  const kept = withoutNodeHeaderSettings(process.env);
  for (const key of Object.keys(process.env)) if (!(key in kept)) delete process.env[key];
}

/** Rebuilds one native package for Electron in a staging copy; returns the installed .node file. */
async function rebuildForElectron(pkgName: string, binary: string): Promise<string> {
  const version = electronVersion();
  const source = join(root, 'node_modules', pkgName);
  if (!existsSync(source)) throw new Error(`${pkgName} is not installed (run npm install).`);
  // Inside the repository, so the copy still resolves its own dependencies (bindings,
  // node-addon-api) from the repository's node_modules.
  const workRoot = join(root, 'build', 'native', '.work');
  mkdirSync(workRoot, { recursive: true });
  const stage = mkdtempSync(join(workRoot, `${pkgName}-`));
  try {
    const copy = join(stage, 'node_modules', pkgName);
    cpSync(source, copy, {
      recursive: true,
      filter: (path) => !path.startsWith(join(source, 'build')),
    });
    writeFileSync(
      join(stage, 'package.json'),
      JSON.stringify({ name: 'native-stage', version: '0.0.0', dependencies: { [pkgName]: '*' } }),
    );
    forgetNodeHeaderSettings();
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({
      buildPath: stage,
      projectRootPath: stage,
      electronVersion: version,
      arch: process.arch,
      onlyModules: [pkgName],
      force: true,
      mode: 'sequential',
    }).catch((error: unknown) => {
      throw new Error(
        `Could not build ${pkgName} for Electron ${version} (${error instanceof Error ? error.message : String(error)}): ` +
          "@electron/rebuild needs a prebuilt binary or Electron's headers from the network, a C++ " +
          'compiler and Python. npm test is unaffected; npm start falls back to the browser host.',
        { cause: error },
      );
    });
    const built = join(copy, 'build', 'Release', binary);
    if (!existsSync(built)) throw new Error(`@electron/rebuild left no ${binary} for ${pkgName}.`);
    mkdirSync(layout.nativeDir, { recursive: true });
    const target = join(layout.nativeDir, binary);
    copyFileSync(built, target);
    assertNotNodeAbi(target, pkgName);
    return target;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** better-sqlite3 for Electron: the app cannot open its data without it. */
export function buildSqliteForElectron(): Promise<string> {
  return rebuildForElectron('better-sqlite3', 'better_sqlite3.node');
}

/** keytar for Electron: without it the app keeps secrets for the session only, and says so. */
export function buildKeytarForElectron(): Promise<string> {
  return rebuildForElectron('keytar', 'keytar.node');
}

export async function buildNativeForElectron(): Promise<string[]> {
  return [await buildSqliteForElectron(), await buildKeytarForElectron()];
}
