import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startCli } from '../../support/cli-process';
import { call } from '../../support/sandbox-http';

const run = (args: string[]) => startCli('electron/sandbox/cli.ts', args);

describe.concurrent('npm run sandbox (cli.ts)', () => {
  it('prints the base URL, answers requests and stops cleanly on SIGTERM', async () => {
    const { child, out } = run(['--port', '0', '--step-ms', '0']);
    const deadline = Date.now() + 20_000;
    while (!/listening on (http:\/\/127\.0\.0\.1:\d+)/.test(out()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out())?.[1];
    expect(baseUrl, out()).toBeDefined();
    expect(out()).toMatch(/^Sandbox listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    const token = await call(baseUrl!, 'POST', '/api/auth/token', {
      body: { client_id: 'demo-viewer', client_secret: 'demo-secret' },
    });
    expect(token.status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('exits 2 with a usage message for bad flags', async () => {
    const cases = [['--port', '70000'], ['--bogus'], ['extra']];
    await Promise.all(
      cases.map(async (args) => {
        const { child, err } = run(args);
        const [code] = await once(child, 'exit');
        expect(code, args.join(' ')).toBe(2);
        expect(err()).toMatch(/Usage: npm run sandbox/);
      }),
    );
  });
});
