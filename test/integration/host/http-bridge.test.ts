import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listChannels, type DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { startHost, type RunningHost } from '../../../electron/host';
import {
  HOST_GONE_MESSAGE,
  KEY_INVALID_MESSAGE,
  createHttpBridge,
  type HostState,
} from '../../../renderer/src/bridge/http-bridge';
import { SseParser } from '../../../renderer/src/bridge/event-stream';
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

  it('says the app is not running when the host is gone, and that a refused key is no longer valid', async () => {
    const states: HostState[] = [];
    const wrong = createHttpBridge({
      origin: `http://127.0.0.1:${host.port}`,
      token: 'nope',
      onHostState: (s) => states.push(s),
    });
    await expect(wrong.app.status({})).rejects.toMatchObject({
      kind: 'access-key-invalid',
      message: KEY_INVALID_MESSAGE,
    });
    // The stream is refused too, and not retried: the state stays where it is.
    const stop = wrong.events.subscribe(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop();
    expect(states).toEqual(['key-invalid']);

    const goneStates: HostState[] = [];
    const gone = createHttpBridge({
      origin: 'http://127.0.0.1:1',
      token: 't',
      onHostState: (s) => goneStates.push(s),
    });
    await expect(gone.app.status({})).rejects.toMatchObject({
      kind: 'host-unreachable',
      message: HOST_GONE_MESSAGE,
    });
    expect(goneStates).toEqual(['gone']);
  });

  it('a service refusing a token is not a refused access key', async () => {
    const states: HostState[] = [];
    const bridge = createHttpBridge({
      origin: `http://127.0.0.1:${host.port}`,
      token: host.token,
      onHostState: (s) => states.push(s),
    });
    const [profile] = await bridge.profiles.list({});
    await expect(bridge.profiles.testConnection({ profileId: profile!.id })).rejects.toMatchObject({
      kind: 'unauthorized',
      status: 401,
    });
    expect(states).toEqual([]);
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

const COUNT = 100;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The browser host's event stream on a real socket: events told one after another, each on a
 * turn of the event loop of its own (as a batch's are), reach the page whole and in their order,
 * gathered into a few network chunks rather than one each (the page takes every chunk as a task).
 */
describe('the browser host’s event stream', () => {
  it('sends events told on separate turns in their order, gathered into few chunks', async () => {
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      request({
        host: '127.0.0.1',
        port: host.port,
        path: '/api/events',
        headers: { Authorization: `Bearer ${host.token}`, Accept: 'text/event-stream' },
      })
        .on('response', resolve)
        .on('error', reject)
        .end(),
    );
    expect(response.statusCode).toBe(200);
    response.setEncoding('utf8');
    const parser = new SseParser();
    const heard: DeskEvent[] = [];
    let chunks = 0;
    response.on('data', (chunk: string) => {
      const events = parser.push(chunk);
      if (events.length > 0) chunks += 1;
      for (const data of events) heard.push(JSON.parse(data) as DeskEvent);
    });
    await expect.poll(() => fake.listenerCount()).toBe(1);

    const told: DeskEvent[] = [];
    for (let rows = 1; rows <= COUNT; rows++) {
      const event: DeskEvent = { type: 'export-progress', exportId: 'x1', rows, done: false };
      told.push(event);
      fake.emit(event);
      await nextTurn();
    }
    await expect.poll(() => heard.length).toBe(COUNT);
    expect(heard).toEqual(told);
    // One write per event would make about one chunk per turn.
    expect(chunks).toBeLessThanOrEqual(COUNT / 4);
    response.destroy();
    await expect.poll(() => fake.listenerCount()).toBe(0);
  });
});
