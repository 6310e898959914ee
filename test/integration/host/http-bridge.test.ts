import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listChannels, type DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { startHost, type RunningHost } from '../../../electron/host';
import { createHttpBridge } from '../../../renderer/src/bridge/http-bridge';
import { createFakeDesk } from '../../support/e2e-fake-desk';

let dir: string;
let host: RunningHost;
let fake: ReturnType<typeof createFakeDesk>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-bridge-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  fake = createFakeDesk();
  host = await startHost({ handlers: fake.handlers, subscribe: fake.subscribe, staticDir: dir });
});
afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the renderer HTTP bridge against the browser host', () => {
  it('has one function for every channel of the contract', () => {
    const bridge = createHttpBridge({ origin: 'http://127.0.0.1:1', token: 't' });
    for (const { area, method } of listChannels()) {
      expect(typeof (bridge[area] as Record<string, unknown>)[method], `${area}.${method}`).toBe(
        'function',
      );
    }
  });

  it('calls through, parsed, and rethrows failures as DeskError', async () => {
    const bridge = createHttpBridge({ origin: `http://127.0.0.1:${host.port}`, token: host.token });
    const created = await bridge.profiles.create({
      name: 'Production',
      baseUrl: 'https://service.example',
      clientId: 'client',
      secret: 's3cret',
    });
    expect(created.name).toBe('Production');
    expect(await bridge.profiles.list({})).toEqual([created]);
    expect(JSON.stringify(created)).not.toContain('s3cret');

    const failure = await bridge.profiles.testConnection({ profileId: created.id }).catch((e) => e);
    expect(failure).toBeInstanceOf(DeskError);
    expect(failure).toMatchObject({
      kind: 'unauthorized',
      status: 401,
      serviceMessage: 'invalid_client',
    });

    // The schema check happens in the host: a bad id never reaches the desk.
    const bad = await bridge.strategies.get({ profileId: 'x', strategyId: 'y' }).catch((e) => e);
    expect(bad).toMatchObject({ kind: 'invalid-input' });
    expect(bad.message).toContain('profileId');
  });

  it('says the app is not answering when the host is gone, and refuses a wrong token', async () => {
    const wrong = createHttpBridge({ origin: `http://127.0.0.1:${host.port}`, token: 'nope' });
    await expect(wrong.app.status({})).rejects.toMatchObject({ kind: 'unauthorized' });
    const gone = createHttpBridge({ origin: 'http://127.0.0.1:1', token: 't' });
    await expect(gone.app.status({})).rejects.toMatchObject({ kind: 'host-unreachable' });
  });

  it('delivers pushed events to every subscriber and closes the stream with the last one', async () => {
    const states: boolean[] = [];
    const bridge = createHttpBridge({
      origin: `http://127.0.0.1:${host.port}`,
      token: host.token,
      onStreamState: (s) => states.push(s),
    });
    const a: DeskEvent[] = [];
    const b: DeskEvent[] = [];
    const stopA = bridge.events.subscribe((e) => a.push(e));
    const stopB = bridge.events.subscribe((e) => b.push(e));
    await expect.poll(() => fake.listenerCount()).toBe(1);
    const event: DeskEvent = { type: 'export-progress', exportId: 'x1', rows: 10, done: false };
    fake.emit(event);
    await expect.poll(() => a.length).toBe(1);
    expect(a).toEqual([event]);
    await expect.poll(() => b).toEqual([event]);
    stopA();
    stopB();
    await expect.poll(() => fake.listenerCount()).toBe(0);
    expect(states[0]).toBe(true);
  });
});
