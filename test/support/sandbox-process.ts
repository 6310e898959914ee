import { startCli } from './cli-process';

/**
 * The sandbox in a process of its own (`npm run sandbox`), as a real service is on another
 * machine: the benches that compare the app with raw requests measure the app's wall-clock
 * against the service's, not two programs sharing one thread.
 */
export async function startSandboxProcess(): Promise<{ baseUrl: string; stop: () => void }> {
  const cli = startCli('electron/sandbox/cli.ts', ['--port', '0', '--step-ms', '0']);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out());
    if (match) return { baseUrl: match[1]!, stop: () => cli.child.kill('SIGTERM') };
    if (Date.now() > deadline) throw new Error(`the sandbox did not start: ${cli.err()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A service in the same region answers in about this; one across the internet in more. */
export const SERVICE_LATENCY_MS = 10;
