import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorFields, openLog } from '../../../../electron/core/log/logger';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-log-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const lines = (folder: string) =>
  readdirSync(folder)
    .sort()
    .flatMap((name) => readFileSync(join(folder, name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the log file', () => {
  it('writes JSON lines in logging order, 0600 in a 0700 folder, with every known secret redacted', async () => {
    let secrets = ['hunter22-secret'];
    const log = await openLog(dataDir, { knownSecrets: async () => secrets });
    log.error('token refused for hunter22-secret', {
      detail: { nested: ['x hunter22-secret y'] },
      clientSecret: 'not-known-but-named',
    });
    secrets = ['hunter22-secret', 'tok-live-1'];
    log.warn('second', errorFields(new Error('Bearer tok-live-1 rejected')));
    log.info('third');
    await log.close();

    const folder = join(dataDir, 'logs');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(folder)) {
      expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600);
    }
    const text = readdirSync(folder)
      .map((n) => readFileSync(join(folder, n), 'utf8'))
      .join('');
    expect(text).not.toMatch(/hunter22-secret|tok-live-1|not-known-but-named/);
    const [first, second, third] = lines(folder);
    expect(first).toMatchObject({
      level: 50,
      msg: 'token refused for [redacted]',
      detail: { nested: ['x [redacted] y'] },
      clientSecret: '[redacted]',
    });
    expect(second).toMatchObject({
      level: 40,
      msg: 'second',
      error: { name: 'Error', message: 'Bearer [redacted] rejected' },
    });
    expect(third).toMatchObject({ level: 30, msg: 'third' });
    expect(typeof first!.time).toBe('string');
  });

  it('rotates by size and keeps a bounded number of files', async () => {
    const log = await openLog(dataDir, { knownSecrets: async () => [], size: '1k', filesKept: 2 });
    for (let i = 0; i < 120; i++) {
      log.error(`line ${i} ${'x'.repeat(80)}`);
      // Rotation happens between writes: let each one land.
      await log.flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await log.close();
    // Old files are removed just after each rotation, in the background.
    await expect.poll(() => readdirSync(join(dataDir, 'logs')).length).toBeLessThanOrEqual(3);
    const files = readdirSync(join(dataDir, 'logs')).sort();
    expect(files.length).toBeGreaterThan(1);
    for (const name of files) expect(name).toMatch(/^strategy-desk\.\d+\.log$/);
    // The newest line is kept.
    expect(lines(join(dataDir, 'logs')).some((l) => String(l.msg).startsWith('line 119 '))).toBe(
      true,
    );
  });
});
