import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from '../../electron/host/build-renderer';

/** `npm run serve` as its own process: what it printed, and how it ended if it did. */
export interface HostProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the address once the host prints it; rejects if the process exits first. */
  ready: Promise<string>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGKILL to the whole tsx process tree: no shutdown code runs. */
  killHard(): Promise<void>;
}

export function spawnHost(
  dataDir: string,
  options: { port?: number; env?: Record<string, string> } = {},
): HostProcess {
  const port = String(options.port ?? 0);
  const child = spawn(
    'npx',
    ['tsx', 'electron/host/cli.ts', '--port', port, '--data-dir', dataDir],
    {
      cwd: PROJECT_ROOT,
      // No Secret Service for the child: secrets stay in its memory.
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'disabled:', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let out = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Strategy desk is ready: (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    void exited.then((code) => reject(new Error(`host exited (${code}): ${out}`)));
  });
  // A test that only waits for the exit must not see an unhandled rejection.
  ready.catch(() => undefined);
  return {
    child,
    output: () => out,
    ready,
    exited,
    async killHard() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    },
  };
}
