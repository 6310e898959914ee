import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../electron/core/desk';
import { openSecretStore, type SecretStore } from '../../../electron/core/secrets';
import { announcedSandbox, builtInSandbox } from '../../../electron/sandbox/embedded';

/**
 * The embedded sandbox keeps its address across launches: two (then three) desk sessions on one
 * data folder, one after the other, each starting the real built-in sandbox as the app does.
 */
describe('the built-in sandbox across restarts', () => {
  let dataDir: string;
  let secrets: SecretStore;
  let desk: Desk | null = null;
  const printed: string[] = [];

  const open = async () =>
    (desk = await createDesk({
      dataDir,
      secretStore: secrets,
      sandbox: announcedSandbox((line) => printed.push(line)),
    }));
  const close = async () => {
    await desk?.close();
    desk = null;
  };
  const token = async (baseUrl: string) => {
    const response = await fetch(`${baseUrl}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: builtInSandbox.demo.clientId,
        client_secret: builtInSandbox.demo.clientSecret,
      }),
    });
    return response.status;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-sandbox-address-'));
    secrets = await openSecretStore({ service: `strategy-desk-test-${randomUUID()}` });
  });
  afterAll(async () => {
    if (desk) for (const p of desk.store.profiles.list()) await secrets.delete(p.id);
    await close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('comes back at the same address after a restart, and says where it runs', async () => {
    const first = await open();
    const profile = await first.profiles.useSandbox({});
    const address = profile.baseUrl;
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(printed.at(-1)).toContain(`The built-in sandbox runs at ${address} `);
    await close();
    // Stopped with the app: nothing answers there until the next launch.
    expect(await token(address).catch(() => 'refused')).toBe('refused');

    const second = await open();
    expect((await second.profiles.list({})).map((p) => p.baseUrl)).toEqual([address]);
    expect(printed.at(-1)).toContain(`The built-in sandbox runs at ${address} `);
    // The address answers a manager's own request, and the profile works unchanged.
    expect(await token(address)).toBe(200);
    expect(
      (await second.profiles.testConnection({ profileId: profile.id })).grantedScopes,
    ).toHaveLength(5);
    await close();
  });

  it('moves only when another program holds its port, and its profile follows it', async () => {
    const [profile] = (await open()).store.profiles.list();
    const address = profile!.baseUrl;
    await close();
    const squatter: Server = createServer();
    await new Promise<void>((resolve) =>
      squatter.listen(Number(new URL(address).port), '127.0.0.1', resolve),
    );
    try {
      const third = await open();
      const [moved] = await third.profiles.list({});
      expect(moved!.baseUrl).not.toBe(address);
      expect(printed.at(-1)).toContain(`The built-in sandbox runs at ${moved!.baseUrl} `);
      expect(
        (await third.profiles.testConnection({ profileId: moved!.id })).grantedScopes,
      ).toHaveLength(5);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
