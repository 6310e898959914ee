import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENTS } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/views';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

/**
 * A profile's stored secret was given for one service. Moved to another address (a second
 * listener on loopback that records every body it is sent), it is not sent there unless the
 * manager enters a secret again or confirms that the stored one may go.
 */
let h: DeskHarness;
let other: Server;
let otherUrl: string;
const received: string[] = [];

beforeAll(async () => {
  h = await openDeskHarness({ clientOptions: { retry: { attempts: 1 } } });
  await h.startSandbox();
  other = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body}`);
      res.statusCode = 401;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: 'invalid_client' }));
    });
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => other?.close(resolve));
});

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e as DeskError,
  );

describe('changing the service address of a profile', () => {
  it('is refused without a new secret or an explicit confirmation; nothing reaches the new address', async () => {
    const secret = DEMO_CLIENTS.manager.client_secret;
    const profile = await h.desk.profiles.create({
      name: 'Moved',
      baseUrl: h.sandbox()!.baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret,
    });
    await h.desk.profiles.testConnection({ profileId: profile.id });

    const refused = await rejection(
      h.desk.profiles.update({ profileId: profile.id, baseUrl: otherUrl, name: 'Renamed' }),
    );
    expect(refused).toBeInstanceOf(DeskError);
    expect(refused.kind).toBe('secret-needed-for-new-address');
    expect(refused.message).toBe(
      `The service address changed from ${h.sandbox()!.baseUrl} to ${otherUrl}. Enter the ` +
        `client secret for the new address, or confirm that the stored secret may be sent there.`,
    );
    // Nothing changed: not the address, not the name; the profile still talks to its service.
    const [kept] = await h.desk.profiles.list({});
    expect(kept).toMatchObject({ name: 'Moved', baseUrl: h.sandbox()!.baseUrl });
    await h.desk.profiles.testConnection({ profileId: profile.id });
    expect(received).toEqual([]);

    // The same address written differently is no change of address.
    await h.desk.profiles.update({ profileId: profile.id, baseUrl: `${h.sandbox()!.baseUrl}/` });

    // A new secret for the new address: that one, and only that one, goes there.
    await h.desk.profiles.update({
      profileId: profile.id,
      baseUrl: otherUrl,
      secret: 'secret-for-the-other-service',
    });
    await rejection(h.desk.profiles.testConnection({ profileId: profile.id }));
    expect(received.join('\n')).not.toContain(secret);
    expect(received.join('\n')).toContain('secret-for-the-other-service');

    // Back, then moved again with the manager's confirmation: the stored secret may go.
    await h.desk.profiles.update({ profileId: profile.id, baseUrl: h.sandbox()!.baseUrl, secret });
    received.length = 0;
    await h.desk.profiles.update({
      profileId: profile.id,
      baseUrl: otherUrl,
      sendSecretToNewAddress: true,
    });
    await rejection(h.desk.profiles.testConnection({ profileId: profile.id }));
    expect(received.join('\n')).toContain(secret);
  });

  it('a check before saving uses the stored secret only under the same rule, and stores nothing', async () => {
    received.length = 0;
    const secret = DEMO_CLIENTS.manager.client_secret;
    const profile = await h.desk.profiles.create({
      name: 'Checked',
      baseUrl: h.sandbox()!.baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret,
    });
    const refused = await rejection(
      h.desk.profiles.check({
        profileId: profile.id,
        baseUrl: otherUrl,
        clientId: DEMO_CLIENTS.manager.client_id,
      }),
    );
    expect(refused.kind).toBe('secret-needed-for-new-address');
    expect(received).toEqual([]);

    // The right details: the scopes the service grants; nothing about the profile changes.
    const granted = await h.desk.profiles.check({
      profileId: profile.id,
      baseUrl: h.sandbox()!.baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
    });
    expect(granted.grantedScopes?.length).toBeGreaterThan(0);
    const after = (await h.desk.profiles.list({})).find((p) => p.id === profile.id)!;
    expect(after.grantedScopes).toBeNull();

    // A wrong secret is refused by the service, in the check, before anything is saved.
    const wrong = await rejection(
      h.desk.profiles.check({
        baseUrl: h.sandbox()!.baseUrl,
        clientId: DEMO_CLIENTS.manager.client_id,
        secret: 'not-the-secret',
      }),
    );
    expect(wrong.kind).toBe('invalid-client');
    expect(JSON.stringify(wrong.toData())).not.toContain('not-the-secret');

    // Nothing listens: the check says the service could not be reached.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await rejection(
      h.desk.profiles.check({ baseUrl: closedUrl, clientId: 'c', secret: 'typed-secret' }),
    );
    expect(unreachable.kind).toBe('network');
    expect(await h.desk.profiles.list({})).toHaveLength(2);
  });
});
