import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { MemorySecretStore } from '../../electron/core/secrets';
import type { RunningHost } from '../../electron/host';
import { DEMO_CLIENTS, type RunningSandbox } from '../../electron/sandbox';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * The profile form checks what it saves: a wrong secret is refused in place (nothing saved), a
 * service that does not answer offers "Save anyway", a new address asks for the secret again
 * (a second service on loopback receives nothing), and the form says where a secret is kept.
 */
const withChromium = itNeeds(chromiumPart);
const MANAGER = DEMO_CLIENTS.manager;
let app: BareAppE2E | undefined;
let host: RunningHost | undefined;
let browser: Browser | undefined;
let sandbox: RunningSandbox | undefined;
let other: Server | undefined;
let otherUrl = '';
let closedUrl = '';
const received: string[] = [];

beforeAll(async () => {
  if (!chromiumPart.available) return;
  // No keychain for this desk: the form must not promise one.
  app = await openBareAppE2E({
    secretStore: new MemorySecretStore(
      'No keychain answered (test): the secret is kept for this session only.',
    ),
  });
  ({ host, browser } = app);
  sandbox = await app.harness.startSandbox();
  other = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(body);
      res.statusCode = 401;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: 'invalid_client' }));
    });
  });
  await new Promise<void>((resolve) => other!.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
}, 120_000);

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
});

function hintOf(page: Page, form: string, label: string) {
  return page
    .getByRole('form', { name: form })
    .getByLabel(label, { exact: true })
    .evaluate(
      (input: HTMLInputElement) =>
        document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
    );
}

async function fillConnect(page: Page, baseUrl: string, secret: string) {
  const connect = page.getByRole('form', { name: 'Connect to your service' });
  await connect.getByLabel('Profile name').fill('Checked');
  await connect.getByLabel('Service address').fill(baseUrl);
  await connect.getByLabel('Client id').fill(MANAGER.client_id);
  await connect.getByLabel('Client secret').fill(secret);
  await connect.getByRole('button', { name: 'Save profile' }).click();
}

describe('the profile form checks before it saves', () => {
  withChromium(
    'wrong secret refused, unreachable saved anyway, a new address asks for the secret',
    async () => {
      const { desk } = app!.harness;
      const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
      const problems = collectPageProblems(page);
      await page.goto(host!.url);
      const connect = 'Connect to your service';
      await page.getByRole('form', { name: connect }).waitFor();
      await expect
        .poll(() => hintOf(page, connect, 'Client secret'))
        .toContain('No keychain answered: kept in memory for this session only');
      expect(await hintOf(page, connect, 'Client secret')).not.toContain('OS keychain');

      // A wrong secret: the service refuses it during the check, and nothing is saved.
      await fillConnect(page, sandbox!.baseUrl, 'not-the-secret');
      await expect
        .poll(() => hintOf(page, connect, 'Client secret'))
        .toContain('The service refused this client id and secret');
      expect(await desk.profiles.list({})).toEqual([]);
      await screenshot(page, 'e2e-profile-checks-01-wrong-secret');

      // Nothing answers at the address: the form offers to save anyway.
      await fillConnect(page, closedUrl, MANAGER.client_secret);
      const saveAnyway = page.getByRole('button', { name: 'Save anyway' });
      await saveAnyway.waitFor();
      expect(await desk.profiles.list({})).toEqual([]);
      await screenshot(page, 'e2e-profile-checks-02-unreachable');
      await saveAnyway.click();
      await page.getByRole('heading', { name: 'Checked', level: 1 }).waitFor();
      const [saved] = await desk.profiles.list({});
      expect(saved).toMatchObject({ baseUrl: closedUrl, hasSecret: true });

      // Moved to another service with the secret left empty: the form asks, nothing is sent.
      await page.getByRole('button', { name: 'Edit profile' }).click();
      const edit = page.getByRole('form', { name: 'Edit profile' });
      await edit.getByLabel('Service address').fill(otherUrl);
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect
        .poll(() => hintOf(page, 'Edit profile', 'Client secret'))
        .toContain('The address changed: enter the client secret for the new address');
      const confirm = edit.getByLabel(`Send the stored secret to ${new URL(otherUrl).host}`);
      await confirm.waitFor();
      expect(received).toEqual([]);
      expect((await desk.profiles.list({}))[0]!.baseUrl).toBe(closedUrl);
      await screenshot(page, 'e2e-profile-checks-03-new-address');

      // Confirmed: the stored secret goes to the new address (for the check), which refuses it.
      await confirm.check();
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect
        .poll(() => hintOf(page, 'Edit profile', 'Client secret'))
        .toContain('The service refused this client id and secret');
      expect(received.join('\n')).toContain(MANAGER.client_secret);
      expect((await desk.profiles.list({}))[0]!.baseUrl).toBe(closedUrl);

      // The right address with the right secret is checked and saved.
      await edit.getByLabel('Service address').fill(sandbox!.baseUrl);
      await edit.getByLabel('Client secret').fill(MANAGER.client_secret);
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved "Checked".').waitFor();
      expect((await desk.profiles.list({}))[0]!.baseUrl).toBe(sandbox!.baseUrl);
      expect(problems).toEqual([]);
      await page.close();
    },
    90_000,
  );

  withChromium(
    'a refused token request is a profile problem in the status bar, not "Online"',
    async () => {
      const { desk } = app!.harness;
      // A profile whose secret went stale at the service (made here without the form's check).
      const stale = await desk.profiles.create({
        name: 'Stale',
        baseUrl: sandbox!.baseUrl,
        clientId: MANAGER.client_id,
        secret: 'expired-secret',
      });
      const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
      await page.addInitScript((id) => localStorage.setItem('strategy-desk.profile', id), stale.id);
      await page.goto(host!.url);
      await page.getByRole('button', { name: 'Profile settings' }).click();
      await page.getByRole('button', { name: 'Test connection' }).click();
      const status = page.getByRole('contentinfo', { name: 'Status' });
      await status.getByText('Profile problem').waitFor();
      // A short state in the bar; the service's refusal in full on hover.
      const connection = status.locator('[data-status-item="connection"]');
      expect(await connection.getAttribute('title')).toContain(
        "The service refused this profile's client id",
      );
      expect(await status.textContent()).not.toContain('Online');
      await screenshot(page, 'e2e-profile-checks-04-status-problem');

      // The secret entered again: the problem clears.
      await desk.profiles.update({ profileId: stale.id, secret: MANAGER.client_secret });
      await page.getByRole('button', { name: 'Test connection' }).click();
      await status.getByText('Online').waitFor();
      await page.close();
    },
  );
});
