import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostRoute, type RunningHost } from '../../../electron/host';
import { listChannels } from '../../../shared/contract';
import { createFakeDesk } from '../../support/e2e-fake-desk';
import { rawRequest } from '../../support/e2e-http';

let dir: string;
let host: RunningHost;
let fake: ReturnType<typeof createFakeDesk>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-host-routes-'));
  const staticDir = join(dir, 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  fake = createFakeDesk();
  host = await startHost({ handlers: fake.handlers, subscribe: fake.subscribe, staticDir });
});

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A concrete path for a route pattern: each parameter becomes a channel of the contract. */
function concretePath(route: HostRoute): string {
  return route.url.replace(/:[A-Za-z]+/g, 'profiles.list');
}

/** The same path written the ways a router decodes to it but a prefix check would not see. */
function disguises(path: string, port: number): string[] {
  const [first = '', ...rest] = path.slice(1).split('/');
  const tail = rest.length > 0 ? `/${rest.join('/')}` : '';
  const hex = (i: number) => first.charCodeAt(i).toString(16);
  const encodeAt = (i: number, upper = false) => {
    const code = upper ? hex(i).toUpperCase() : hex(i);
    return `/${first.slice(0, i)}%${code}${first.slice(i + 1)}${tail}`;
  };
  return [
    path,
    encodeAt(0),
    encodeAt(0, true),
    encodeAt(1),
    encodeAt(first.length - 1),
    `http://127.0.0.1:${port}${path}`,
    `http://127.0.0.1:${port}${encodeAt(0)}`,
    `//${path.slice(1)}`,
  ];
}

describe('browser host: every route is guarded after routing', () => {
  it('registers the contract and the events as guarded routes, and only static files as public', () => {
    const guarded = host.routes.filter((r) => r.access === 'token').map((r) => r.url);
    expect(guarded).toContain('/api/:channel');
    expect(guarded).toContain('/api/events');
    const publicRoutes = host.routes.filter((r) => r.access === 'public-asset');
    expect(publicRoutes.map((r) => r.url)).toEqual(['/*', '/*']);
    expect(publicRoutes.flatMap((r) => [r.method].flat()).sort()).toEqual(['GET', 'HEAD']);
    expect(listChannels().length).toBeGreaterThan(10);
  });

  it('refuses every guarded route without the token, however its target is written', async () => {
    const calls = fake.calls.length;
    let tried = 0;
    for (const route of host.routes.filter((r) => r.access === 'token')) {
      for (const method of [route.method].flat()) {
        for (const path of disguises(concretePath(route), host.port)) {
          const res = await rawRequest(host.port, {
            method,
            path,
            headers: { 'Content-Type': 'application/json' },
            ...(method === 'POST' && { body: '{}' }),
          });
          tried += 1;
          // Either the route was reached and refused the call, or nothing was routed at all.
          expect([401, 404], `${method} ${path}`).toContain(res.status);
          if (res.status === 404) expect(res.body).not.toMatch(/"ok":true/);
        }
      }
    }
    expect(tried).toBeGreaterThan(20);
    expect(fake.calls.length).toBe(calls);
  });

  it('reaches the route (and refuses it) for a percent-encoded or absolute-form target', async () => {
    for (const path of [
      '/%61pi/profiles.list',
      '/a%70i/profiles.list',
      '/%61%70%69/profiles.list',
      `http://127.0.0.1:${host.port}/api/profiles.list`,
    ]) {
      const res = await rawRequest(host.port, {
        method: 'POST',
        path,
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status, path).toBe(401);
      expect(res.json().error?.kind).toBe('unauthorized');
    }
    const events = await rawRequest(host.port, { path: '/%61pi/events' });
    expect(events.status).toBe(401);
  });

  it('refuses a foreign Origin on an encoded target even with the token', async () => {
    const res = await rawRequest(host.port, {
      method: 'POST',
      path: '/%61pi/profiles.list',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${host.token}`,
        Origin: 'http://evil.example',
      },
      body: '{}',
    });
    expect(res.status).toBe(403);
  });

  it('answers an encoded target that carries the token, as the plain one', async () => {
    const res = await rawRequest(host.port, {
      method: 'POST',
      path: '/%61pi/profiles.list',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(res.json().ok).toBe(true);
  });

  it('refuses a call without the token before reading its body: no parse error, no size check', async () => {
    const calls = fake.calls.length;
    for (const [contentType, body] of [
      ['application/json', '{not json'],
      ['text/plain', 'hello'],
      ['application/x-www-form-urlencoded', 'a=1'],
    ] as const) {
      const res = await rawRequest(host.port, {
        method: 'POST',
        path: '/api/profiles.list',
        headers: { 'Content-Type': contentType },
        body,
      });
      expect(res.status, contentType).toBe(401);
      expect(res.json().error?.kind).toBe('unauthorized');
    }
    expect(fake.calls.length).toBe(calls);
  });

  it('answers no preflight, and a HEAD of a guarded route is refused like its GET', async () => {
    const preflight = await rawRequest(host.port, {
      method: 'OPTIONS',
      path: '/api/profiles.list',
      headers: {
        Origin: 'http://evil.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
    const head = await rawRequest(host.port, { method: 'HEAD', path: '/api/events' });
    expect(head.status).toBe(401);
  });

  it('near-misses of a guarded path (slash, dot, case, encoded slash) reach nothing guarded', async () => {
    for (const path of [
      '/api/events/',
      '/api/events.',
      '/api/events%2E',
      '/API/events',
      '/api%2Fevents',
      '/api/events%2F',
      '//api/events',
      '/./api/events',
      '/api/./events',
      '/static/../api/events',
      '/api/profiles.list/',
    ]) {
      for (const method of ['GET', 'POST']) {
        const res = await rawRequest(host.port, {
          method,
          path,
          headers: { 'Content-Type': 'application/json' },
          ...(method === 'POST' && { body: '{}' }),
        });
        expect([401, 404], `${method} ${path}`).toContain(res.status);
        expect(String(res.headers['content-type'] ?? ''), `${method} ${path}`).not.toContain(
          'text/event-stream',
        );
        expect(res.body, `${method} ${path}`).not.toMatch(/"ok":true/);
      }
    }
  });
});
