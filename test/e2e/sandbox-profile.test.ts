import { afterAll, beforeAll, describe, expect } from 'vitest';
import { MemorySecretStore } from '../../electron/core/secrets';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * The sandbox profile's settings on a machine without a keychain: its address, said to be kept
 * across launches, and its public demo secret without a single "session only" warning.
 */
const withChromium = itNeeds(chromiumPart);
let e2e: AppE2E | undefined;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  e2e = await openAppE2E({
    secretStore: new MemorySecretStore('No Secret Service answered (test).'),
  });
}, 120_000);
afterAll(async () => e2e?.close());

describe('the sandbox profile without a keychain', () => {
  withChromium('shows its address and says its secret is public, with no warning', async () => {
    const page = await e2e!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(e2e!.host.url);
    await page.getByRole('button', { name: 'Profile settings' }).click();
    const [profile] = await e2e!.harness.desk.profiles.list({});
    expect(profile!.secretStorage).toBe('session');

    await expect
      .poll(() => page.getByTestId('profile-address').textContent())
      .toBe(profile!.baseUrl);
    const main = page.getByRole('main');
    await main.getByText('it keeps this address from one launch to the next').waitFor();
    await page
      .getByTestId('sandbox-secret')
      .getByText("The sandbox's public demo secret")
      .waitFor();
    const status = page.getByRole('contentinfo', { name: 'Status' });
    await status.getByText('No keychain', { exact: true }).waitFor();
    await screenshot(page, 'sandbox-profile-01-settings');

    // Not once on the page: not in the sidebar, the settings or the status bar.
    expect(await page.getByText(/session only/i).count()).toBe(0);
    expect(await page.getByRole('img', { name: /session only/i }).count()).toBe(0);
    expect(await status.getByText('No keychain').getAttribute('title')).toContain(
      "The built-in sandbox's demo secret is public",
    );

    // The edit form says the same of the address field.
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await main.getByText('kept from one launch to the next').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
