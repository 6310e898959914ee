import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../electron/sandbox';
import type { ActivityEntryDetail } from '../../shared/activity/views';
import { sandboxAdmin } from '../support/desk-harness';
import { collectPageProblems, screenshot } from '../support/e2e-browser';
import {
  chromiumPart,
  newDraft,
  openDraftsEnv,
  openDraftsTab,
  waitSaved,
  type DraftsEnv,
} from '../support/e2e-drafts-env';
import { openStrategyTab, tableRows } from '../support/e2e-versions-setup';
import { call, tokenFor, versionPath } from '../support/sandbox-http';
import { itNeeds } from '../support/system-parts';

/**
 * An unexecuted version in the way, in Chromium against the browser host, the sandbox and
 * SQLite: never deleted unseen. The app reads it and shows it (positions, schedule, how it
 * differs from the draft), deletes it only on a second confirmation that names it, says it is in
 * the way before the service refuses anything, and records what was deleted.
 */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;
const SCHEDULED = DEMO_VERSION_IDS.dividendGrowthScheduled;
const SHORT = `${SCHEDULED.slice(0, 8)}…`;
const VIEWPORT = { width: 1360, height: 900 };

beforeAll(async () => {
  if (chromiumPart.available) env = await openDraftsEnv();
}, 120_000);
afterAll(async () => env?.close());

const base = () => env!.harness.sandbox()!.baseUrl;
const admin = (method: string, path: string, body?: unknown) =>
  sandboxAdmin(base(), method, path, body);
/** The newest version the service holds for a strategy (an unexecuted one is the newest). */
const latestAtService = async (strategyId: string) =>
  (
    (await admin('GET', '/sandbox/strategies')) as {
      data: { id: string; latest_version_id: string | null }[];
    }
  ).data.find((s) => s.id === strategyId)!.latest_version_id;
/** The version as the service gives it, read apart from the app. */
async function atService(strategyId: string, versionId: string) {
  const token = await tokenFor(base(), 'manager');
  const answer = await call(base(), 'GET', versionPath(strategyId, versionId, 'positions'), {
    token,
  });
  return answer.json.data as { scheduled_for: string | null; inserted_at: string };
}
/** A timestamp as the app writes it in the manager's local time (the same formatter). */
const local = (page: Page, iso: string) =>
  page.evaluate(
    (at) =>
      new Intl.DateTimeFormat(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        // The app's one clock: 24-hour, whatever the locale's habit.
        hourCycle: 'h23',
      }).format(new Date(at)),
    iso,
  );
async function deletedEntries(strategyId: string): Promise<ActivityEntryDetail[]> {
  const desk = env!.harness.desk;
  const page = await desk.activity.list({
    profileId: env!.profileId,
    strategyId,
    kinds: ['version-deleted'],
    offset: 0,
    limit: 10,
  });
  return Promise.all(page.entries.map((e) => desk.activity.get({ seq: e.seq })));
}
const fact = (d: ActivityEntryDetail, label: string) =>
  d.facts.find((f) => f.label === label)?.value;

describe('an unexecuted version in the way', () => {
  withChromium(
    'Dividend Growth: the refusal leads to the version read and shown, deleted on a second confirmation naming it, then the draft executes',
    async () => {
      const { harness, profileId } = env!;
      const page = await env!.browser.newPage({ viewport: VIEWPORT });
      const problems = collectPageProblems(page);
      const service = await atService(DIVIDEND, SCHEDULED);
      expect(service.scheduled_for).not.toBeNull();
      await openDraftsTab(page, env!.host.url, 'Dividend Growth');
      await newDraft(page, 'KO down', 'From the current target');
      await page.getByLabel('Draft weight % of KO', { exact: true }).fill('9');
      await waitSaved(page);
      await page.getByRole('button', { name: 'Execute…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Execute rebalance' }).click();

      // The refusal: one offer, to see the version; nothing deleted.
      const see = page.getByRole('button', { name: `See version ${SHORT} before deleting it` });
      await see.waitFor();
      expect(
        await page.getByRole('button', { name: /^Delete (the unexecuted )?version/ }).count(),
      ).toBe(0);
      expect(await latestAtService(DIVIDEND)).toBe(SCHEDULED);
      await see.click();

      // What it holds, read from the service: CVX added, XOM dropped, its schedule.
      const dialog = page.getByRole('dialog', {
        name: `Unexecuted version ${SHORT} of Dividend Growth`,
      });
      await dialog.getByRole('table', { name: `Positions of version ${SHORT}` }).waitFor();
      const positions = await tableRows(page, `Positions of version ${SHORT}`);
      expect(positions).toContainEqual(['CVX', '0', '8', 'ADD']);
      expect(positions).toContainEqual(['XOM', '8', '0', 'REMOVE']);
      expect(positions).toContainEqual(['KO', '10', '12', 'CHANGE']);
      const scheduled = await local(page, service.scheduled_for!);
      const facts = dialog.getByRole('definition');
      await facts.filter({ hasText: scheduled }).waitFor();
      await facts.filter({ hasText: await local(page, service.inserted_at) }).waitFor();
      // How it differs from the draft that would replace it.
      const differs = await tableRows(page, 'How it differs from the draft “KO down”');
      expect(differs).toContainEqual(['CVX', '8', '0', 'only in the version']);
      expect(differs).toContainEqual(['XOM', '0', '8', 'only in the draft']);
      expect(differs).toContainEqual(['KO', '12', '9', 'weights differ']);
      await screenshot(page, 'unexecuted-01-shown-before-delete');

      // The second confirmation names it; still nothing deleted until it is pressed.
      const confirm = dialog.getByRole('button', {
        name: `Delete version ${SHORT}, scheduled for ${scheduled}, and execute this draft`,
      });
      expect(await latestAtService(DIVIDEND)).toBe(SCHEDULED);
      await confirm.click();
      await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
      await screenshot(page, 'unexecuted-02-deleted-then-executed');

      const created = (
        await harness.desk.versions.list({ profileId, strategyId: DIVIDEND })
      ).filter((v) => v.origin === 'created');
      expect(created).toHaveLength(1);
      expect(await latestAtService(DIVIDEND)).toBe(created[0]!.id);
      const detail = await harness.desk.versions.get({
        profileId,
        strategyId: DIVIDEND,
        versionId: created[0]!.id,
      });
      expect(detail.positions.find((p) => p.symbol === 'KO')?.weight).toBe('9');
      // Followed to its end, so no poll of it runs into the next test's faults.
      await harness.waitFor(
        (e) => e.type === 'version-status-changed' && e.versionId === created[0]!.id && e.ended,
      );

      // The activity entry holds the content as read just before deleting.
      const [entry, ...more] = await deletedEntries(DIVIDEND);
      expect(more).toEqual([]);
      expect(entry!.versionId).toBe(SCHEDULED);
      expect(fact(entry!, 'Content')).toMatch(/^Read from the service just before deleting/);
      expect(fact(entry!, 'Scheduled for')).toBe(service.scheduled_for);
      const held = entry!.tables.find((t) => t.title === 'Positions')!.rows;
      expect(held).toContainEqual(['CVX', '0', '8', 'ADD']);
      expect(held).toContainEqual(['XOM', '8', '0', 'REMOVE']);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    'a version known before any refusal shows on the Overview and the Execute line, and seeing it deletes nothing',
    async () => {
      // The demo data again: Dividend Growth's scheduled version is back at the service.
      await admin('POST', '/sandbox/reset');
      const page = await env!.browser.newPage({ viewport: VIEWPORT });
      const problems = collectPageProblems(page);
      await page.goto(env!.host.url);
      await openStrategyTab(page, 'Dividend Growth', 'Overview');
      const notices = page.getByRole('list', { name: 'Unexecuted versions in the way' });
      expect(await notices.count()).toBe(0);

      await page.getByRole('tab', { name: 'Versions' }).click();
      const form = page.getByRole('form', { name: 'Import a version by id' });
      await form.getByLabel('Import a version by id').fill(SCHEDULED);
      await form.getByRole('button', { name: 'Import' }).click();
      await page.getByText(`Imported version ${SCHEDULED}`).waitFor();

      const service = await atService(DIVIDEND, SCHEDULED);
      const line = `An unexecuted version scheduled for ${await local(page, service.scheduled_for!)} (${SHORT}) is in the way: see it / delete it`;
      await page.getByRole('tab', { name: 'Overview' }).click();
      await notices.getByText(line).waitFor();
      await screenshot(page, 'unexecuted-03-overview-notice');

      // It is remembered: a new page (and the app's data) still say so.
      await page.reload();
      await openStrategyTab(page, 'Dividend Growth', 'Drafts');
      await newDraft(page, 'Before the refusal', 'From the current target');
      const execute = page.getByRole('region', { name: 'Execute' });
      await execute.getByText(line).waitFor();
      await screenshot(page, 'unexecuted-04-execute-line-notice');

      // "see it" reads it and compares it with this draft; closing deletes nothing.
      await execute.getByRole('button', { name: `See unexecuted version ${SHORT}` }).click();
      const dialog = page.getByRole('dialog', {
        name: `Unexecuted version ${SHORT} of Dividend Growth`,
      });
      await dialog
        .getByRole('table', { name: 'How it differs from the draft “Before the refusal”' })
        .waitFor();
      expect(await tableRows(page, `Positions of version ${SHORT}`)).toContainEqual([
        'CVX',
        '0',
        '8',
        'ADD',
      ]);
      // In a small window, dark: the content scrolls, the buttons stay in view.
      await page.setViewportSize({ width: 1024, height: 700 });
      await page.emulateMedia({ colorScheme: 'dark' });
      const remove = dialog.getByRole('button', { name: new RegExp(`^Delete version ${SHORT}`) });
      const box = (await remove.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(700);
      expect(box.x + box.width).toBeLessThanOrEqual(1024);
      await screenshot(page, 'unexecuted-04b-dialog-small-dark');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await latestAtService(DIVIDEND)).toBe(SCHEDULED);
      await execute.getByText(line).waitFor();
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    'a version only named by the refusal is remembered unread; one that cannot be read is deleted only on the acknowledgement, and its entry says so',
    async () => {
      const strategyId = DEMO_STRATEGY_IDS.coreEquity;
      const created = (await admin(
        'POST',
        `/sandbox/strategies/${strategyId}/unexecuted-versions`,
        {
          scheduled_for: '2031-01-02T03:04:05Z',
        },
      )) as { data: { id: string } };
      const versionId = created.data.id;
      const short = `${versionId.slice(0, 8)}…`;
      const page = await env!.browser.newPage({ viewport: VIEWPORT });
      const problems = collectPageProblems(page);
      await openDraftsTab(page, env!.host.url, 'Core Equity');
      await newDraft(page, 'AAPL up', 'From the current target');
      await page.getByLabel('Draft weight % of AAPL', { exact: true }).fill('16');
      await waitSaved(page);
      await page.getByRole('button', { name: 'Execute…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Execute rebalance' }).click();
      await page.getByRole('button', { name: `See version ${short} before deleting it` }).waitFor();

      // Another day: the app remembers the version the service named, though it never read it.
      await page.reload();
      await openStrategyTab(page, 'Core Equity', 'Overview');
      const notices = page.getByRole('list', { name: 'Unexecuted versions in the way' });
      await notices
        .getByText(
          `An unexecuted version (${short}, named by the service, not read yet) is in the way`,
        )
        .waitFor();

      // Its read fails (an answer the app cannot read): the manager is told, and must acknowledge.
      await admin('PUT', '/sandbox/faults', { malformed_json_next: 1 });
      await notices.getByRole('button', { name: `Delete unexecuted version ${short}` }).click();
      const dialog = page.getByRole('dialog', {
        name: `Unexecuted version ${short} of Core Equity`,
      });
      await dialog.getByText(/could not read version/).waitFor();
      const remove = dialog.getByRole('button', { name: `Delete version ${short} unseen` });
      expect(await remove.isDisabled()).toBe(true);
      await screenshot(page, 'unexecuted-05-unreadable-needs-acknowledgement');
      await dialog
        .getByRole('checkbox', {
          name: `I delete version ${short} without having seen what it holds.`,
        })
        .check();
      expect(await latestAtService(strategyId)).toBe(versionId);
      await remove.click();
      await dialog.waitFor({ state: 'detached' });
      await notices.waitFor({ state: 'detached' });
      expect(await latestAtService(strategyId)).not.toBe(versionId);

      const [entry] = await deletedEntries(strategyId);
      expect(entry!.versionId).toBe(versionId);
      expect(entry!.summary).toMatch(/deleted unseen \(it could not be read\)$/);
      expect(fact(entry!, 'Content')).toBe(
        'Not read: the app could not read the version, and the manager acknowledged deleting it unseen',
      );
      expect(fact(entry!, 'Read error kind')).toBe('bad-response');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    'Versions → Delete shows the version as the service holds it now, and again if it changes before the confirmation',
    async () => {
      const strategyId = DEMO_STRATEGY_IDS.freshStart;
      const created = (await admin(
        'POST',
        `/sandbox/strategies/${strategyId}/unexecuted-versions`,
        {
          positions: [{ symbol: 'AAPL', weight: '10' }],
        },
      )) as { data: { id: string } };
      const versionId = created.data.id;
      const short = `${versionId.slice(0, 8)}…`;
      const change = (symbol: string, weight: string) =>
        admin('PUT', `/sandbox/strategies/${strategyId}/unexecuted-versions/${versionId}`, {
          positions: [{ symbol, weight }],
        });
      const page = await env!.browser.newPage({ viewport: VIEWPORT });
      const problems = collectPageProblems(page);
      await page.goto(env!.host.url);
      await openStrategyTab(page, 'Fresh Start', 'Versions');
      const form = page.getByRole('form', { name: 'Import a version by id' });
      await form.getByLabel('Import a version by id').fill(versionId);
      await form.getByRole('button', { name: 'Import' }).click();
      await page.getByText(`Imported version ${versionId}`).waitFor();

      // Changed at the service after the import: the delete shows what it holds now.
      await change('MSFT', '20');
      await page.getByRole('button', { name: `Delete version ${versionId.slice(0, 8)}` }).click();
      const dialog = page.getByRole('dialog', {
        name: `Unexecuted version ${short} of Fresh Start`,
      });
      await dialog.getByRole('table', { name: `Positions of version ${short}` }).waitFor();
      expect(await tableRows(page, `Positions of version ${short}`)).toEqual([
        ['MSFT', '0', '20', 'ADD'],
      ]);
      await screenshot(page, 'unexecuted-06-versions-delete-fresh-read');

      // Changed again while shown: the confirmation deletes nothing and shows it anew.
      await change('KO', '30');
      const confirm = dialog.getByRole('button', {
        name: `Delete version ${short} (not scheduled)`,
      });
      await confirm.click();
      await dialog.getByText(/no longer what was shown/).waitFor();
      await page
        .getByRole('table', { name: `Positions of version ${short}` })
        .getByText('KO')
        .waitFor();
      expect(await tableRows(page, `Positions of version ${short}`)).toEqual([
        ['KO', '0', '30', 'ADD'],
      ]);
      expect(await latestAtService(strategyId)).toBe(versionId);
      await confirm.click();
      await page.getByText(`Version ${versionId} was deleted from the service.`).waitFor();
      expect(await latestAtService(strategyId)).toBeNull();
      const [entry] = await deletedEntries(strategyId);
      expect(entry!.tables.find((t) => t.title === 'Positions')!.rows).toEqual([
        ['KO', '0', '30', 'ADD'],
      ]);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
