import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * One of the project's command-line entry points (`electron/…/cli.ts`), in one Node process with
 * tsx's loader: a signal reaches the script itself. (Through tsx's own command a SIGTERM went to
 * its parent process first, which on a busy machine sometimes ended with the signal, 143, before
 * the script's handler answered.)
 */
export function startCli(script: string, args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, out: () => stdout, err: () => stderr };
}
