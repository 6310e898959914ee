import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOST_LIMITS, startHost, type HostLimits, type RunningHost } from '../../../electron/host';
import { createFakeDesk } from '../../support/e2e-fake-desk';
import { apiCall } from '../../support/e2e-http';

/**
 * Connections that send half a request and wait (slowloris), or more connections than a browser
 * ever opens: real sockets against the real browser host. They are timed out or refused, while
 * the renderer's event stream, its calls, and answers that take long go on.
 */

let dir: string;
let staticDir: string;
let host: RunningHost | null = null;
let fake: ReturnType<typeof createFakeDesk>;
const opened: Socket[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'desk-host-connections-'));
  staticDir = join(dir, 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
});
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await host?.close();
  host = null;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(limits?: Partial<HostLimits>): Promise<RunningHost> {
  fake = createFakeDesk();
  host = await startHost({
    handlers: fake.handlers,
    subscribe: fake.subscribe,
    staticDir,
    log: () => undefined,
    ...(limits && { limits }),
  });
  return host;
}

interface HeldSocket {
  /** When the TCP connection was made. */
  connectedAt: number;
  /** Milliseconds from connecting to being closed by the host. */
  closed: Promise<number>;
  isClosed: () => boolean;
  /** What the host wrote before closing (a 408, or nothing). */
  received: () => string;
}

/** A raw connection that sends `text` and then nothing more, as a slowloris client does. */
function hold(port: number, text: string): Promise<HeldSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    opened.push(socket);
    let received = '';
    let isClosed = false;
    let connectedAt = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((done) =>
      socket.on('close', () => {
        isClosed = true;
        done(Date.now() - connectedAt);
      }),
    );
    socket.once('error', reject);
    socket.on('connect', () => {
      connectedAt = Date.now();
      socket.write(text);
      resolve({ connectedAt, closed, isClosed: () => isClosed, received: () => received });
    });
  });
}

const halfHeader = (port: number) =>
  `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer `;

/** The renderer's event stream: resolves each time `text` has arrived on it. */
async function openEvents(port: number, token: string) {
  const controller = new AbortController();
  const res = await fetch(`http://127.0.0.1:${port}/api/events`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  return {
    async waitFor(part: string) {
      while (!text.includes(part)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`The event stream ended before "${part}" arrived.`);
        text += value;
      }
    },
    close: () => controller.abort(),
  };
}

const offline = (message: string) => ({
  type: 'connectivity-changed' as const,
  profileId: '11111111-2222-4333-8444-555555555555',
  online: false,
  message,
});

describe('browser host: connections that send half a request', () => {
  it('closes them once the headers timeout passes, serving the app meanwhile', async () => {
    const { port, token } = await serve();
    const events = await openEvents(port, token);
    const auth = { Authorization: `Bearer ${token}` };
    // Below the cap (the stream and the calls' connection hold two more).
    const held = await Promise.all(
      Array.from({ length: HOST_LIMITS.maxConnections - 10 }, () => hold(port, halfHeader(port))),
    );

    const call = await apiCall(port, 'profiles.list', {}, auth);
    expect(call.status).toBe(200);
    fake.emit(offline('while held'));
    await events.waitFor('while held');
    expect(held.filter((h) => h.isClosed())).toHaveLength(0);

    const lasted = await Promise.all(held.map((h) => h.closed));
    // Node looks for them every checkIntervalMs; a loaded machine adds a little.
    for (const ms of lasted) {
      expect(ms).toBeGreaterThanOrEqual(HOST_LIMITS.headersTimeoutMs - 50);
      expect(ms).toBeLessThan(HOST_LIMITS.headersTimeoutMs + HOST_LIMITS.checkIntervalMs + 3_000);
    }
    expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 408 /);
    // The event stream outlived them all.
    fake.emit(offline('after them'));
    await events.waitFor('after them');
    events.close();
  }, 30_000);
});

describe('browser host: more connections than the cap', () => {
  it('refuses new ones at once while the open stream and connection keep working', async () => {
    const { port, token } = await serve();
    const auth = { authorization: `Bearer ${token}` };
    const events = await openEvents(port, token);
    // The renderer's keep-alive connection, opened before the flood.
    const client = new Client(`http://127.0.0.1:${port}`, { pipelining: 1 });
    const viaClient = async () => {
      const res = await client.request({
        method: 'POST',
        path: '/api/profiles.list',
        headers: { ...auth, host: `127.0.0.1:${port}`, 'content-type': 'application/json' },
        body: '{}',
      });
      await res.body.text();
      return res.statusCode;
    };
    expect(await viaClient()).toBe(200);

    const extra = 20;
    const held: HeldSocket[] = [];
    for (let i = 0; i < HOST_LIMITS.maxConnections + extra; i++)
      held.push(await hold(port, halfHeader(port)));
    // Refused: closed at once, long before any headers timeout.
    const refused = await Promise.all(
      held.map((h) =>
        Promise.race([
          h.closed.then((ms) => ms < HOST_LIMITS.headersTimeoutMs / 2),
          new Promise<boolean>((resolve) => setTimeout(resolve, 1_000, false)),
        ]),
      ),
    );
    expect(refused.filter(Boolean).length).toBeGreaterThanOrEqual(extra);
    expect(refused.filter((r) => !r).length).toBeLessThanOrEqual(HOST_LIMITS.maxConnections - 2);
    const refusedNew = await hold(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(await refusedNew.closed).toBeLessThan(HOST_LIMITS.headersTimeoutMs / 2);
    expect(refusedNew.received()).toBe('');

    // The app: its stream and its open connection.
    expect(await viaClient()).toBe(200);
    fake.emit(offline('during the flood'));
    await events.waitFor('during the flood');

    // Once the held ones time out, new connections are served again.
    await Promise.all(held.map((h) => h.closed));
    const fresh = await apiCall(port, 'profiles.list', {}, { Authorization: `Bearer ${token}` });
    expect(fresh.status).toBe(200);
    await client.close();
    events.close();
  }, 30_000);
});

describe('browser host: what is not timed', () => {
  const limits: Partial<HostLimits> = {
    headersTimeoutMs: 300,
    requestTimeoutMs: 600,
    keepAliveTimeoutMs: 300,
    checkIntervalMs: 100,
  };

  it('cuts a body sent too slowly, never an answer that takes long nor the event stream', async () => {
    const { port, token } = await serve(limits);
    const events = await openEvents(port, token);
    // A call whose answer takes until the slow body below has been cut.
    let slowBodyCut: () => void = () => undefined;
    const cut = new Promise<void>((resolve) => (slowBodyCut = resolve));
    const list = fake.handlers.profiles.list;
    fake.handlers.profiles.list = async (input) => {
      await cut;
      return list(input);
    };
    const slowAnswer = apiCall(port, 'profiles.list', {}, { Authorization: `Bearer ${token}` });

    const slowBody = await hold(
      port,
      `POST /api/profiles.list HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\n\r\n{"a":',
    );
    const lasted = await slowBody.closed;
    expect(lasted).toBeGreaterThanOrEqual(limits.requestTimeoutMs! - 50);
    expect(slowBody.received()).toMatch(/^HTTP\/1\.1 408 /);
    slowBodyCut();

    const answer = await slowAnswer;
    expect(answer.status).toBe(200);
    // The stream has been open longer than the request timeout, and still carries events.
    fake.emit(offline('still streaming'));
    await events.waitFor('still streaming');
    events.close();
  }, 30_000);
});
