import { parseArgs } from 'node:util';

/** `npm run sandbox -- --port N [--step-ms M]`: the sandbox with demo data, until SIGINT/SIGTERM. */

const USAGE =
  'Usage: npm run sandbox -- [--port N] [--step-ms M]\n  --port N      port on 127.0.0.1 (0 = any free port; default 4010)\n  --step-ms M   time per rebalance step in ms (default 1000)';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function wholeNumber(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max)
    fail(`--${name} must be a whole number from 0 to ${max}, got "${raw}".`);
  return Number(raw);
}

async function main(): Promise<void> {
  let values: { port?: string; 'step-ms'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        'step-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = wholeNumber('port', values.port, 4010, 65535);
  const stepMs = wholeNumber('step-ms', values['step-ms'], 1000, 600_000);
  // Loaded after the flags are checked, so a usage error answers at once.
  const { startSandbox } = await import('./index');
  const sandbox = await startSandbox({ port, stepMs }).catch((error: Error) =>
    fail(`Could not start the sandbox on port ${port}: ${error.message}`),
  );
  process.stdout.write(`Sandbox listening on ${sandbox.baseUrl}\n`);
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
