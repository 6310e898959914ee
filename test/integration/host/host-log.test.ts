import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../electron/core/desk';
import { MemorySecretStore } from '../../../electron/core/secrets';
import { startHost, type RunningHost } from '../../../electron/host';
import { apiCall } from '../../support/e2e-http';

/** An internal failure behind the browser host: a plain answer to the page, the facts in the log. */
let dir: string;
let desk: Desk;
let host: RunningHost;
const SECRET = 'log-test-secret-5d1e';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strategy-desk-hostlog-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
  desk = await createDesk({ dataDir: join(dir, 'data'), secretStore: new MemorySecretStore() });
  host = await startHost({
    handlers: desk,
    subscribe: (listener) => desk.subscribe(listener),
    log: (line) => desk.log.error(`[host] ${line}`),
    staticDir: join(dir, 'renderer'),
  });
});

afterAll(async () => {
  await host?.close();
  await desk?.close();
  rmSync(dir, { recursive: true, force: true });
});

const logText = () => {
  const folder = join(dir, 'data', 'logs');
  return readdirSync(folder)
    .sort()
    .map((name) => readFileSync(join(folder, name), 'utf8'))
    .join('');
};

describe('the log of the browser host', () => {
  it('records an internal failure (call, error, stack) that the page sees only as a plain 500', async () => {
    const auth = { Authorization: `Bearer ${host.token}` };
    const created = await apiCall(
      host.port,
      'profiles.create',
      { name: 'P', baseUrl: 'https://service.example.com', clientId: 'c', secret: SECRET },
      auth,
    );
    expect(created.status).toBe(200);
    // The data store fails under the desk: every call that reads it is our fault now.
    desk.store.close();
    const res = await apiCall(host.port, 'profiles.list', {}, auth);
    expect(res.status).toBe(500);
    // The page gets only our own sentence.
    expect(res.json().error).toEqual({
      kind: 'internal',
      message:
        'Something went wrong inside the app. Nothing was sent to the service by this action.',
    });
    await desk.log.flush();
    const entries = logText()
      .split('\n')
      .filter(Boolean)
      .map(
        (line) => JSON.parse(line) as { msg: string; error?: { message: string; stack: string } },
      );
    const failure = entries.find((e) => e.msg === 'profiles.list failed');
    expect(failure?.error?.message).toMatch(/database connection is not open/);
    expect(failure?.error?.stack).toContain('profiles');
    expect(logText()).not.toContain(SECRET);
  });
});
