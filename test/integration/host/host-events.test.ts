import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import { startHost, type RunningHost } from '../../../electron/host';
import { SseParser } from '../../../renderer/src/bridge/event-stream';
import { createFakeDesk } from '../../support/e2e-fake-desk';

/**
 * The browser host's event stream on a real socket: events told one after another, each on a
 * turn of the event loop of its own (as a batch's are), reach the page whole and in their order,
 * gathered into a few network chunks rather than one each (the page takes every chunk as a task).
 */

let dir: string;
let host: RunningHost;
let fake: ReturnType<typeof createFakeDesk>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-host-events-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  fake = createFakeDesk();
  host = await startHost({ handlers: fake.handlers, subscribe: fake.subscribe, staticDir: dir });
});
afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const COUNT = 100;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

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
