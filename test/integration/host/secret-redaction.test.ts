import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../../electron/host';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { apiCall } from '../../support/e2e-http';

/**
 * A service that echoes what it was sent: the client secret in the token endpoint's field errors
 * and message, the access token in a strategy read's errors. Nothing of either may reach the page.
 */
const SECRET = `s3cret-${randomUUID()}`;
const TOKEN = `tok-${randomUUID()}`;
let echoing: Server;
let echoUrl: string;
let tokenMode: 'echo-secret' | 'grant' = 'echo-secret';

let harness: DeskHarness;
let host: RunningHost;
let dir: string;
let auth: Record<string, string>;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => resolve(text));
  });
}

beforeAll(async () => {
  echoing = createServer(async (req, res) => {
    const body = await readBody(req);
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/auth/token') {
      const sent = (JSON.parse(body) as { client_secret: string }).client_secret;
      if (tokenMode === 'echo-secret') {
        res.statusCode = 400;
        res.end(
          JSON.stringify({
            error: 'invalid_request',
            message: `client_secret ${sent} is not accepted`,
            errors: {
              client_secret: [sent],
              [sent]: ['the secret as a key'],
              echo: [`prefix-${sent}-suffix`, encodeURIComponent(sent)],
            },
          }),
        );
        return;
      }
      res.end(
        JSON.stringify({
          access_token: TOKEN,
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'strategies:read strategies:write',
        }),
      );
      return;
    }
    const presented = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    res.statusCode = 400;
    res.end(
      JSON.stringify({
        message: `Refused for token ${presented}`,
        errors: { authorization: [`Bearer ${presented}`], deep: { deeper: [presented] } },
      }),
    );
  });
  await new Promise<void>((resolve) => echoing.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echoing.address() as AddressInfo).port}`;

  dir = mkdtempSync(join(tmpdir(), 'desk-redact-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
  harness = await openDeskHarness({ clientOptions: { retry: { attempts: 1 } } });
  host = await startHost({
    handlers: harness.desk,
    subscribe: (listener) => harness.desk.subscribe(listener),
    staticDir: join(dir, 'renderer'),
  });
  auth = { Authorization: `Bearer ${host.token}` };
});

afterAll(async () => {
  await host?.close();
  await harness?.close();
  await new Promise((resolve) => echoing?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function createProfile(): Promise<string> {
  const res = await apiCall(
    host.port,
    'profiles.create',
    { name: 'Echo', baseUrl: echoUrl, clientId: 'echo-client', secret: SECRET },
    auth,
  );
  expect(res.status).toBe(200);
  return (res.json().value as { id: string }).id;
}

describe('errors that cross to the page carry no secret', () => {
  it('a token endpoint echoing the client secret: redacted in message, serviceMessage, details', async () => {
    tokenMode = 'echo-secret';
    const profileId = await createProfile();
    const res = await apiCall(host.port, 'profiles.testConnection', { profileId }, auth);
    expect(res.json().ok).toBe(false);
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain(encodeURIComponent(SECRET));
    // The fields are still there, with the secret replaced: the manager still sees what failed.
    const error = res.json().error as { details?: { fields?: Record<string, string[]> } };
    expect(error.details?.fields?.client_secret).toEqual(['[redacted]']);
    expect(res.body).toContain('prefix-[redacted]-suffix');
  });

  it('a resource echoing the access token: redacted however deep', async () => {
    tokenMode = 'grant';
    const profileId = await createProfile();
    const res = await apiCall(
      host.port,
      'strategies.add',
      { profileId, strategyId: randomUUID() },
      auth,
    );
    expect(res.json().ok).toBe(false);
    expect(res.body).toContain('[redacted]');
    expect(res.body).not.toContain(TOKEN);
    expect(res.body).not.toContain(SECRET);
  });

  it('a check before saving: the typed secret, not stored yet, is redacted too', async () => {
    tokenMode = 'echo-secret';
    const typed = `typed-${randomUUID()}`;
    const res = await apiCall(
      host.port,
      'profiles.check',
      { baseUrl: echoUrl, clientId: 'echo-client', secret: typed },
      auth,
    );
    expect(res.json().ok).toBe(false);
    expect(res.body).toContain('[redacted]');
    expect(res.body).not.toContain(typed);
  });
});
