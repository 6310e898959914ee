import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startCli } from '../../support/cli-process';

/** `npm run serve` answers about its own flags at once, before it opens anything. */

async function serve(args: string[]) {
  const { child, out, err } = startCli('electron/host/cli.ts', args);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout: out(), stderr: err() };
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
