import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Desk } from '../../electron/core/desk';
import type { SecretStore } from '../../electron/core/secrets';
import { DEMO_STRATEGY_IDS, type RunningSandbox } from '../../electron/sandbox';
import type { RunningHost } from '../../electron/host';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * Profiles as a manager lives them, in Chromium against the browser host: add one for a
 * service (the sandbox, started on its own, with the read-only demo-viewer client), test the
 * connection, edit it, enter a secret that went missing, remove it and its secret.
 */
const withChromium = itNeeds(chromiumPart);

let app: BareAppE2E | undefined;
let secrets: SecretStore;
let desk: Desk | undefined;
let host: RunningHost | undefined;
let browser: Browser | undefined;
let sandbox: RunningSandbox | undefined;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  app = await openBareAppE2E();
  ({ host, browser } = app);
  ({ desk, secrets } = app.harness);
  // A service of its own for the profile form to point at.
  sandbox = await app.harness.startSandbox();
}, 120_000);

afterAll(async () => app?.close());

async function onlyProfileId(): Promise<string> {
  const profiles = await desk!.profiles.list({});
  expect(profiles).toHaveLength(1);
  return profiles[0]!.id;
}

function fieldState(page: Page, form: string, label: string) {
  return page
    .getByRole('form', { name: form })
    .getByLabel(label)
    .evaluate((input: HTMLInputElement) => ({
      value: input.value,
      invalid: input.getAttribute('aria-invalid'),
      describedBy: document.getElementById(input.getAttribute('aria-describedby') ?? '')
        ?.textContent,
    }));
}

describe('profiles', () => {
  withChromium(
    'add, test the connection, edit, a missing secret, remove with its secret',
    async () => {
      const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
      const problems = collectPageProblems(page);
      await page.goto(host!.url);
      const connect = page.getByRole('form', { name: 'Connect to your service' });
      await connect.waitFor();

      // An http address of another machine is refused in place, before anything is sent.
      await connect.getByLabel('Profile name').fill('Demo viewer');
      await connect.getByLabel('Service address').fill('http://service.example.com');
      await connect.getByLabel('Client id').fill('demo-viewer');
      await connect.getByLabel('Client secret').fill('demo-secret');
      await connect.getByRole('button', { name: 'Save profile' }).click();
      await expect
        .poll(() => fieldState(page, 'Connect to your service', 'Service address'))
        .toMatchObject({ invalid: 'true', describedBy: expect.stringContaining('Use https://.') });
      expect(await desk!.profiles.list({})).toEqual([]);
      await screenshot(page, 'e2e-profiles-01-http-refused');
      // The desk refuses it too, whoever asks.
      const refused = await desk!.profiles
        .create({
          name: 'x',
          baseUrl: 'http://service.example.com',
          clientId: 'c',
          secret: 's',
        })
        .catch((e: Error) => e);
      expect((refused as Error).message).toContain('https://');

      // The running sandbox's loopback address is fine over http.
      await connect.getByLabel('Service address').fill(sandbox!.baseUrl);
      await connect.getByRole('button', { name: 'Save profile' }).click();
      await page.getByRole('heading', { name: 'Demo viewer', level: 1 }).waitFor();
      await page.getByText('Test the connection to check').waitFor();
      const profileId = await onlyProfileId();
      expect(await secrets.get(profileId)).toBe('demo-secret');
      const storedIn =
        secrets.kind === 'keychain' ? 'Stored in the OS keychain' : 'Kept for this session only';
      await page.getByRole('main').getByText(storedIn, { exact: true }).waitFor();

      await page.getByRole('button', { name: 'Test connection' }).click();
      await page.getByText('Connected: the service granted 2 scopes.').waitFor();
      const granted = page.getByRole('list', { name: 'Granted scopes' }).getByRole('listitem');
      expect(await granted.locator('code').allTextContents()).toEqual([
        'strategies:read',
        'strategy_versions:read',
      ]);
      await screenshot(page, 'e2e-profiles-02-connection-tested');

      // Edit: the secret field is write-only (empty), and an empty one keeps the stored secret.
      await page.getByRole('button', { name: 'Edit profile' }).click();
      const edit = 'Edit profile';
      expect((await fieldState(page, edit, 'Client secret')).value).toBe('');
      expect((await fieldState(page, edit, 'Client secret')).describedBy).toContain(
        'Leave empty to keep the stored secret',
      );
      const editForm = page.getByRole('form', { name: edit });
      await editForm.getByLabel('Service address').fill('http://10.1.2.3:4010');
      await editForm.getByRole('button', { name: 'Save changes' }).click();
      await expect
        .poll(() => fieldState(page, edit, 'Service address'))
        .toMatchObject({ invalid: 'true', describedBy: expect.stringContaining('Use https://.') });
      await screenshot(page, 'e2e-profiles-03-edit-refused');
      await editForm.getByLabel('Service address').fill(sandbox!.baseUrl);
      await editForm.getByLabel('Profile name').fill('Demo viewer (read-only)');
      await editForm.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { name: 'Demo viewer (read-only)', level: 1 }).waitFor();
      await page.getByText('Saved "Demo viewer (read-only)".').waitFor();
      expect((await desk!.profiles.list({}))[0]!.name).toBe('Demo viewer (read-only)');
      expect(await secrets.get(profileId)).toBe('demo-secret');

      // A strategy of this organization is added; one of another organization is refused in words.
      await page.getByRole('button', { name: 'Add strategy by id' }).click();
      const add = page.getByRole('form', { name: 'Add strategy by id' });
      await add.getByLabel('Strategy id').fill(DEMO_STRATEGY_IDS.otherFund);
      await add.getByRole('button', { name: 'Add' }).click();
      await add.getByText('A strategy of another organization cannot be added').waitFor();
      await screenshot(page, 'e2e-profiles-04-other-organization');
      await add.getByLabel('Strategy id').fill(DEMO_STRATEGY_IDS.coreEquity);
      await add.getByRole('button', { name: 'Add' }).click();
      await page.getByRole('heading', { name: 'Core Equity', level: 1 }).waitFor();
      await page.getByRole('table', { name: 'Holdings' }).waitFor();
      expect(await page.getByRole('button', { name: 'Refresh' }).isEnabled()).toBe(true);

      // The secret goes missing (a session-only secret after a restart): the app asks for it.
      await secrets.delete(profileId);
      await page.reload();
      const prompt = page.getByRole('form', { name: 'Enter the client secret' });
      await prompt.getByText('is not stored').waitFor();
      await page.getByRole('img', { name: /Client secret missing/ }).waitFor();
      await screenshot(page, 'e2e-profiles-05-secret-missing');
      await prompt.getByRole('button', { name: 'Save secret' }).click();
      await prompt.getByText('Enter the client secret.').waitFor();
      await prompt.getByLabel(/Client secret for demo-viewer/).fill('demo-secret');
      await prompt.getByRole('button', { name: 'Save secret' }).click();
      await prompt.waitFor({ state: 'detached' });
      expect(await secrets.get(profileId)).toBe('demo-secret');

      // Profile settings come to the front from the profile's activity opened over them (the
      // button stayed pressed there, and a click closed the settings to the book).
      const settings = page.getByRole('button', { name: 'Profile settings' });
      if ((await settings.getAttribute('aria-pressed')) !== 'true') await settings.click();
      await page.getByRole('button', { name: 'Remove profile…' }).waitFor();
      await page.getByRole('button', { name: 'Profile activity' }).click();
      await page.getByRole('heading', { name: 'Activity', exact: true }).waitFor();
      expect(await settings.getAttribute('aria-pressed')).toBe('false');

      // Remove: a confirmation that says the secret goes too; then the welcome screen again.
      await settings.click();
      await page.getByRole('button', { name: 'Remove profile…' }).click();
      const dialog = page.getByRole('dialog', { name: /Remove the profile/ });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(
        secrets.kind === 'keychain' ? 'removed from the OS keychain' : 'removed from this session',
      );
      await screenshot(page, 'e2e-profiles-06-remove-confirm');
      // Escape cancels, nothing is removed.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await desk!.profiles.list({})).toHaveLength(1);
      await page.getByRole('button', { name: 'Remove profile…' }).click();
      await dialog.getByRole('button', { name: 'Remove profile' }).click();
      await page.getByRole('heading', { name: 'Welcome to Strategy desk' }).waitFor();
      expect(await desk!.profiles.list({})).toEqual([]);
      expect(await secrets.get(profileId)).toBeNull();
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});
