import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** `npm run serve` answers about its own flags at once, before it opens anything. */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

async function serve(args: string[]) {
  const child = spawn(TSX, ['electron/host/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe.concurrent('npm run serve (host cli.ts)', () => {
  it('--help prints how to call it and exits 0', async () => {
    const { code, stdout, stderr } = await serve(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^Usage: npm run serve -- \[--port N\] \[--data-dir D\]\n/);
    expect(stdout).toContain('--data-dir D');
  });

  it('exits 2 naming what is wrong, with the usage, for bad flags', async () => {
    const cases: [string[], RegExp][] = [
      [['--port', '70000'], /--port must be a whole number from 0 to 65535.*"70000"/],
      [['--port', '-1'], /--port/],
      [['--port', '80.5'], /"80\.5"/],
      [['--bogus'], /--bogus/],
      [['extra'], /extra/],
    ];
    await Promise.all(
      cases.map(async ([args, names]) => {
        const { code, stdout, stderr } = await serve(args);
        expect(code, args.join(' ')).toBe(2);
        expect(stdout, args.join(' ')).toBe('');
        expect(stderr, args.join(' ')).toMatch(names);
        expect(stderr, args.join(' ')).toContain('Usage: npm run serve');
      }),
    );
  });
});
