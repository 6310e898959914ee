import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../electron/host/build-renderer';
import { createHttpBridge } from '../../../renderer/src/bridge/http-bridge';

/**
 * `npm start -- --data-dir D` as a manager runs it, on a machine where Electron cannot run: the
 * browser host opens on that folder, and says where the built-in sandbox runs once it does.
 */
function npmStart(args: string[]) {
  const child = spawn(join(PROJECT_ROOT, 'node_modules/.bin/tsx'), ['scripts/start.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      STRATEGY_DESK_BROWSER: '1',
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
      // No Secret Service for the child: secrets stay in its memory.
      DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out);
        if (match) resolve(match);
      };
      child.stdout!.on('data', check);
      check();
      void exited.then((code) => reject(new Error(`npm start exited (${code}): ${out}`)));
    });
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    output: () => out,
    exited,
    waitFor,
    async stop() {
      if (child.exitCode === null && child.signalCode === null)
        process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-start-'));
const running: ReturnType<typeof npmStart>[] = [];
afterAll(async () => {
  for (const run of running) await run.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start -- --data-dir', () => {
  it('opens the browser host on that folder and prints the sandbox address, kept across a restart', async () => {
    const first = npmStart([`--data-dir=${dataDir}`]);
    running.push(first);
    const [, url] = await first.waitFor(/Strategy desk is ready: (\S+)/);
    expect(first.output()).toContain(`Data folder: ${dataDir}\n`);
    expect(existsSync(join(dataDir, 'strategy-desk.sqlite'))).toBe(true);

    const address = new URL(url!);
    const bridge = createHttpBridge({
      origin: address.origin,
      token: new URLSearchParams(address.hash.slice(1)).get('token')!,
    });
    const profile = await bridge.profiles.useSandbox({});
    const [, printed] = await first.waitFor(/The built-in sandbox runs at (\S+) /);
    expect(printed).toBe(profile.baseUrl);
    expect(first.output()).toContain(
      `curl -X POST ${profile.baseUrl}/api/auth/token -H 'content-type: application/json'`,
    );
    await first.stop();

    // The second launch on the folder starts the sandbox at once, at the same address.
    const second = npmStart(['--data-dir', dataDir]);
    running.push(second);
    await second.waitFor(/Strategy desk is ready: /);
    const [, again] = await second.waitFor(/The built-in sandbox runs at (\S+) /);
    expect(again).toBe(profile.baseUrl);
    await second.stop();
  }, 120_000);

  it('refuses a flag it does not know, saying how to call it', async () => {
    const run = npmStart(['--data', dataDir]);
    running.push(run);
    expect(await run.exited).toBe(2);
    expect(run.output()).toMatch(/Unknown option '--data'/);
    expect(run.output()).toContain('Usage: npm start -- [--data-dir D] [--port N]');
  });
});
