import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../../electron/host';
import { CONTENT_SECURITY_POLICY } from '../../../electron/transport/content-policy';
import { createFakeDesk } from '../../support/e2e-fake-desk';
import { apiCall, rawRequest } from '../../support/e2e-http';

let dir: string;
let host: RunningHost;
let fake: ReturnType<typeof createFakeDesk>;
let auth: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-host-'));
  const staticDir = join(dir, 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(staticDir, '.hidden'), 'no');
  writeFileSync(join(dir, 'outside.txt'), 'outside the static folder');
  fake = createFakeDesk();
  host = await startHost({ handlers: fake.handlers, subscribe: fake.subscribe, staticDir });
  auth = { Authorization: `Bearer ${host.token}` };
});

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('browser host: who may call', () => {
  it('listens on 127.0.0.1 with a fresh 256-bit token in the URL fragment', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers a call carrying the token', async () => {
    const res = await apiCall(host.port, 'profiles.list', {}, auth);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ok: true, value: [] });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses a call without the token', async () => {
    const res = await apiCall(host.port, 'profiles.list', {}, {});
    expect(res.status).toBe(401);
    expect(res.json().error?.kind).toBe('unauthorized');
  });

  it('refuses a wrong token, of the same length or not, and a token in the query', async () => {
    const sameLength = host.token.slice(0, -1) + (host.token.endsWith('A') ? 'B' : 'A');
    for (const token of [sameLength, 'short', `${host.token}x`]) {
      const res = await apiCall(
        host.port,
        'profiles.list',
        {},
        { Authorization: `Bearer ${token}` },
      );
      expect(res.status).toBe(401);
    }
    const query = await rawRequest(host.port, {
      method: 'POST',
      path: `/api/profiles.list?token=${host.token}`,
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(query.status).toBe(401);
  });

  it('refuses a foreign Origin, even with the token', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${host.port + 1}`]) {
      const res = await apiCall(host.port, 'profiles.list', {}, { ...auth, Origin: origin });
      expect(res.status).toBe(403);
      expect(res.json().error?.message).toMatch(/another site/);
    }
    const own = await apiCall(
      host.port,
      'profiles.list',
      {},
      {
        ...auth,
        Origin: `http://127.0.0.1:${host.port}`,
      },
    );
    expect(own.status).toBe(200);
  });

  it('refuses a foreign Host (DNS rebinding), on the API and the static files', async () => {
    for (const hostHeader of [`evil.example:${host.port}`, '127.0.0.1', `127.0.0.1:1`]) {
      const api = await apiCall(host.port, 'profiles.list', {}, { ...auth, Host: hostHeader });
      expect(api.status).toBe(403);
      const page = await rawRequest(host.port, { path: '/', headers: { Host: hostHeader } });
      expect(page.status).toBe(403);
    }
    const localhost = await apiCall(
      host.port,
      'profiles.list',
      {},
      {
        ...auth,
        Host: `localhost:${host.port}`,
        Origin: `http://localhost:${host.port}`,
      },
    );
    expect(localhost.status).toBe(200);
  });

  it('refuses Sec-Fetch-Site cross-site and same-site', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await apiCall(
        host.port,
        'profiles.list',
        {},
        { ...auth, 'Sec-Fetch-Site': site },
      );
      expect(res.status).toBe(403);
    }
    const same = await apiCall(
      host.port,
      'profiles.list',
      {},
      {
        ...auth,
        'Sec-Fetch-Site': 'same-origin',
      },
    );
    expect(same.status).toBe(200);
  });
});

describe('browser host: what crosses', () => {
  it('answers 400 naming the field for a bad payload', async () => {
    const res = await apiCall(
      host.port,
      'profiles.create',
      { name: 'Prod', baseUrl: 'https://x.example', clientId: 'c' },
      auth,
    );
    expect(res.status).toBe(400);
    const error = res.json().error!;
    expect(error.kind).toBe('invalid-input');
    expect(error.message).toContain('profiles.create');
    expect(error.message).toContain('secret');
    const extra = await apiCall(host.port, 'profiles.list', { sneaky: 1 }, auth);
    expect(extra.status).toBe(400);
    expect(extra.json().error?.message).toContain('sneaky');
  });

  it('refuses bodies that are not JSON, not valid JSON, or too large', async () => {
    const text = await rawRequest(host.port, {
      method: 'POST',
      path: '/api/profiles.list',
      headers: { ...auth, 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const broken = await rawRequest(host.port, {
      method: 'POST',
      path: '/api/profiles.list',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"a":',
    });
    expect(broken.status).toBe(400);
    expect(broken.json().error?.message).toMatch(/not valid JSON/);
    const huge = await apiCall(
      host.port,
      'profiles.list',
      { x: 'a'.repeat(9 * 1024 * 1024) },
      auth,
    );
    expect(huge.status).toBe(413);
  });

  it('answers 404 for a channel that is not in the contract', async () => {
    const res = await apiCall(host.port, 'profiles.__proto__', {}, auth);
    expect(res.status).toBe(404);
    expect(res.json().ok).toBe(false);
  });

  it('passes a DeskError on with its kind, status and service message', async () => {
    const res = await apiCall(
      host.port,
      'profiles.testConnection',
      { profileId: '11111111-2222-4333-8444-555555555555' },
      auth,
    );
    expect(res.json()).toEqual({
      ok: false,
      error: {
        kind: 'unauthorized',
        message: 'The service refused the client id or secret.',
        status: 401,
        serviceMessage: 'invalid_client',
      },
    });
  });

  it('hides any other error behind a plain message', async () => {
    const ref = {
      profileId: '11111111-2222-4333-8444-555555555555',
      strategyId: 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21',
    };
    const res = await apiCall(host.port, 'strategies.refresh', ref, auth);
    expect(res.status).toBe(500);
    expect(res.json().error?.kind).toBe('internal');
    expect(res.body).not.toContain('secret-path');
    const badAnswer = await apiCall(host.port, 'strategies.remove', ref, auth);
    expect(badAnswer.status).toBe(500);
    expect(badAnswer.body).not.toContain('yes');
  });

  it('pushes events over Server-Sent Events, validated, and unsubscribes on close', async () => {
    const refused = await rawRequest(host.port, { path: '/api/events' });
    expect(refused.status).toBe(401);

    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${host.port}/api/events`, {
      headers: auth,
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    await expect.poll(() => fake.listenerCount()).toBe(1);
    const profileId = '11111111-2222-4333-8444-555555555555';
    fake.emit({
      type: 'connectivity-changed',
      profileId: 'not-a-uuid',
      online: true,
      message: null,
    });
    fake.emit({ type: 'connectivity-changed', profileId, online: false, message: 'offline' });
    let text = '';
    while (!text.includes('offline')) text += (await reader.read()).value ?? '';
    expect(text).not.toContain('not-a-uuid');
    expect(text).toContain(`data: {"type":"connectivity-changed","profileId":"${profileId}"`);
    controller.abort();
    await expect.poll(() => fake.listenerCount()).toBe(0);
  });
});

describe('browser host: static files', () => {
  it('serves the renderer with a strict CSP and no sniffing', async () => {
    const res = await rawRequest(host.port, { path: '/' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    // The one policy the Electron shell's app:// scheme sends too (unit-tested for strictness).
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const js = await rawRequest(host.port, { path: '/assets/app.js' });
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('refuses traversal, hidden files and directory listings', async () => {
    for (const path of [
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/%2e%2e/%2e%2e/outside.txt',
      '/..%2foutside.txt',
      '/assets/..%5c..%5coutside.txt',
      '/.hidden',
      '/assets/',
      '/assets',
      '/%00',
      '/%E0%A4%A',
    ]) {
      const res = await rawRequest(host.port, { path });
      expect([400, 404], path).toContain(res.status);
      expect(res.body).not.toContain('outside the static folder');
    }
  });
});
