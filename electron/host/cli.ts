/**
 * `npm run serve -- --port N --data-dir D`: the app in a browser, for machines where Electron
 * cannot run. Prints the address to open (with its per-launch access key) and runs until stopped.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDesk } from '../core/desk';
import { openSecretStore } from '../core/secrets';
import { announcedSandbox } from '../sandbox/embedded';
import { defaultDataDir } from '../transport/paths';
import { startRefusalMessage } from '../transport/start-refusal';
import { ensureRendererBuilt } from './build-renderer';
import { startHost } from './index';

const USAGE = [
  'Usage: npm run serve -- [--port N] [--data-dir D]',
  '  --port N      port on 127.0.0.1 (0 = any free port; the default)',
  "  --data-dir D  the app's data folder (default: the platform's per-user folder)",
].join('\n');

/** A wrong flag: what is wrong and how to call it, exit 2 (nothing was started). */
function usageError(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port > 65535)
    usageError(
      `--port must be a whole number from 0 to 65535 (0 picks a free port), not "${raw}".`,
    );
  return port;
}

function parseFlags(): { port?: string; 'data-dir'?: string; help?: boolean } {
  try {
    return parseArgs({
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    usageError((error as Error).message);
  }
}

async function main(): Promise<void> {
  const values = parseFlags();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = parsePort(values.port);
  const dataDir = resolve(
    values['data-dir'] ?? defaultDataDir(process.platform, process.env, homedir()),
  );

  const staticDir = await ensureRendererBuilt();
  const secretStore = await openSecretStore();
  const desk = await createDesk({
    dataDir,
    secretStore,
    // Says where the sandbox runs once it does (now for an existing sandbox profile).
    sandbox: announcedSandbox((line) => console.log(line)),
    ownerName: 'the browser host',
  });
  const host = await startHost({
    handlers: desk,
    subscribe: (listener) => desk.subscribe(listener),
    hasProfiles: () => desk.store.profiles.list().length > 0,
    log: (line) => desk.log.error(`[host] ${line}`),
    port,
    staticDir,
  });

  // The address without its access key: a second launch on this folder points here.
  desk.dataFolder.describe({ address: `http://127.0.0.1:${host.port}/` });
  console.log(`Data folder: ${dataDir}`);
  console.log(`Strategy desk is ready: ${host.url}`);
  console.log(
    "Open that address in your browser; it carries this launch's access key. Ctrl+C stops.",
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await host.close();
    await desk.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  // A refusal the app explains already says what is wrong and what to do, in the manager's words.
  const message = error instanceof Error ? error.message : String(error);
  console.error(startRefusalMessage(error) ?? `Strategy desk could not start: ${message}`);
  process.exit(1);
});
