import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import type { ActivityKind } from '../../shared/activity/kinds';
import { seedActivity } from '../support/activity-seed';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { executeDraft, useVersionsE2E } from '../support/e2e-versions-setup';
import { itNeeds } from '../support/system-parts';
import { parseCsv } from '../support/rfc4180';

/**
 * The Activity view in Chromium against the browser host, the real desk, sandbox and SQLite: an
 * execution arrives live at the top, opens as tables, filters and exports; the profile's view over
 * thousands of entries reads only what it shows; an edit of the file is named at the top.
 */
const withChromium = itNeeds(chromiumPart);
const e2e = useVersionsE2E(chromiumPart.available);

const { coreEquity } = DEMO_STRATEGY_IDS;

const activityTable = (page: Page) => page.getByRole('table', { name: 'Activity' });
const shownRows = (page: Page) => activityTable(page).locator('tbody tr.row[data-seq]');
const totalShown = async (page: Page) =>
  Number(((await page.getByTestId('activity-total').textContent()) ?? '').replace(/\D/g, ''));
const seqsShown = (page: Page) =>
  shownRows(page).evaluateAll((trs) => trs.map((tr) => Number((tr as HTMLElement).dataset.seq)));

/** The log as the desk lists it: the newest `limit` entries and the total for a filter. */
function listed(filter: { strategyId?: string; kinds?: ActivityKind[] } = {}, limit = 500) {
  return e2e().harness.desk.activity.list({
    profileId: e2e().profileId,
    ...filter,
    offset: 0,
    limit,
  });
}

/** The cells of every row of a details table, by its caption. */
function detailTable(page: Page, caption: string): Promise<string[][]> {
  return page
    .locator('table', { has: page.locator('caption', { hasText: caption }) })
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
    );
}

async function openStrategyActivity(page: Page, strategyName: string) {
  const sidebar = page.getByRole('navigation', { name: 'Strategies' });
  await sidebar.getByRole('button', { name: new RegExp(`^${strategyName}\\b`) }).click();
  await page.getByRole('heading', { name: strategyName, level: 1 }).waitFor();
  await page.getByRole('tab', { name: 'Activity' }).click();
  await page.getByRole('heading', { name: 'Activity', level: 2 }).waitFor();
}

describe('the Activity view', () => {
  withChromium(
    'a strategy: an execution arrives live, opens as tables, filters by kind and day, exports',
    async () => {
      const desk = e2e().harness.desk;
      const page = await e2e().browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      let listReads = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/api/activity.list')) listReads++;
      });
      await page.goto(e2e().host.url);
      await openStrategyActivity(page, 'Core Equity');
      const before = await listed({ strategyId: coreEquity });
      await expect.poll(() => totalShown(page)).toBe(before.total);
      const readsBefore = listReads;

      // An execution: its entries join the top as they are written, without reading the list again.
      const version = await executeDraft(e2e(), coreEquity, (rows) => [
        ...rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '13.5' } : r)),
        { symbol: 'GOOGL', weight: '1.5', locked: false },
      ]);
      const ended = async () =>
        (await listed({ strategyId: coreEquity, kinds: ['version-ended'] })).entries.some(
          (e) => e.versionId === version.id,
        );
      await expect.poll(ended, { timeout: 20_000 }).toBe(true);
      const after = await listed({ strategyId: coreEquity });
      expect(after.total).toBeGreaterThanOrEqual(before.total + 3);
      await expect.poll(() => totalShown(page)).toBe(after.total);
      await expect
        .poll(async () => (await seqsShown(page)).slice(0, 5))
        .toEqual(after.entries.slice(0, 5).map((e) => e.seq));
      // The execution's own row says how it ended, as soon as its end is written.
      const sent = after.entries.find((e) => e.kind === 'execution-sent')!;
      expect(sent.outcome).toMatch(/^Complete/);
      await expect
        .poll(() =>
          activityTable(page).locator(`tr[data-seq="${sent.seq}"] td.outcome`).textContent(),
        )
        .toBe(sent.outcome);
      expect(listReads).toBe(readsBefore);
      await screenshot(page, 'activity-01-strategy-live');

      // The execution's details: facts, the positions sent as a table, linked entries, hashes.
      await activityTable(page)
        .locator(`tr[data-seq="${sent.seq}"]`)
        .getByRole('button', { name: 'Execution sent' })
        .click();
      const details = page.getByRole('region', { name: /Execution sent/ });
      await details.getByRole('heading', { name: /Execution sent/ }).waitFor();
      const positions = await detailTable(page, 'Positions sent');
      expect(positions).toContainEqual(['AAPL', '13.5']);
      expect(positions).toContainEqual(['GOOGL', '1.5']);
      const detail = await desk.activity.get({ seq: sent.seq });
      expect(positions).toEqual(detail.tables.find((t) => t.title === 'Positions sent')!.rows);
      const key = detail.facts.find((f) => f.label === 'Idempotency-Key')!.value;
      expect(await details.getByText(key, { exact: true }).count()).toBe(1);
      expect(await details.getByText(detail.hash, { exact: true }).count()).toBe(1);
      expect(await details.getByText(detail.previousHash, { exact: true }).count()).toBe(1);
      expect(await details.getByText(/"positions"/).isVisible()).toBe(false);
      await screenshot(page, 'activity-02-execution-details');

      // Its answer, linked from it, refers back to it.
      await details.getByRole('button', { name: 'Execution answered' }).first().click();
      const answer = page.getByRole('region', { name: /Execution answered/ });
      await answer.getByRole('heading', { name: /Execution answered/ }).waitFor();
      await answer.getByRole('button', { name: 'Execution sent' }).click();
      await details.getByRole('heading', { name: /Execution sent/ }).waitFor();

      // Its end: an instant reads in local time, with the exact text recorded beside it.
      await details.getByRole('button', { name: 'Rebalance ended' }).click();
      const end = page.getByRole('region', { name: /Rebalance ended/ });
      await end.getByRole('heading', { name: /Rebalance ended/ }).waitFor();
      const endSeq = (await desk.activity.get({ seq: sent.seq })).linked.find(
        (l) => l.kind === 'version-ended',
      )!.seq;
      const executedAt = (await desk.activity.get({ seq: endSeq })).facts.find(
        (f) => f.label === 'Executed at',
      )!.value;
      expect(executedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const instant = end.locator(`time[datetime="${executedAt}"]`);
      expect(await instant.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      await end.getByText(`(${executedAt})`, { exact: true }).waitFor();
      await end.getByRole('button', { name: 'Execution sent' }).click();
      await details.getByRole('heading', { name: /Execution sent/ }).waitFor();
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'detached' });

      // Filter by kind: none is refused, then executions only.
      await page.getByRole('button', { name: /^Kind:/ }).click();
      // A strategy's log holds no profile entries, so their kinds are not offered.
      await page.getByRole('checkbox', { name: 'Strategy added' }).waitFor();
      expect(await page.getByRole('checkbox', { name: /^Profile / }).count()).toBe(0);
      await page.getByRole('button', { name: 'None', exact: true }).click();
      await page.getByText('Choose at least one kind.').waitFor();
      // Nothing is listed for filters that cannot be read (not the rows of the last good ones).
      expect(await page.getByRole('table', { name: 'Activity' }).count()).toBe(0);
      expect(await page.getByTestId('activity-total').count()).toBe(0);
      await page.getByRole('checkbox', { name: 'Execution sent' }).check();
      const executions = await listed({ strategyId: coreEquity, kinds: ['execution-sent'] });
      await expect.poll(() => totalShown(page)).toBe(executions.total);
      expect(await seqsShown(page)).toEqual(executions.entries.map((e) => e.seq));
      await page.keyboard.press('Escape');
      await screenshot(page, 'activity-03-filtered');
      // The kind panel goes on Escape from its button, and on a click elsewhere.
      const kindButton = page.getByRole('button', { name: /^Kind:/ });
      const kindChoice = page.getByRole('checkbox', { name: 'Execution sent' });
      await kindButton.click();
      await kindChoice.waitFor();
      await kindButton.press('Escape');
      await kindChoice.waitFor({ state: 'detached' });
      await kindButton.click();
      await kindChoice.waitFor();
      await page.getByTestId('activity-total').click();
      await kindChoice.waitFor({ state: 'detached' });

      // Days: none after today; a range upside down is refused.
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel('From').fill(tomorrow);
      await page.getByText('No entry matches the filters.').waitFor();
      expect(await totalShown(page)).toBe(0);
      await page.getByLabel('To (included)').fill('2020-01-01');
      await page.getByText('The last day comes before the first day.').waitFor();
      await page.getByRole('button', { name: 'Any day' }).click();
      await expect.poll(() => totalShown(page)).toBe(executions.total);

      // Export the executions shown, as CSV and as JSON Lines.
      await page.getByRole('button', { name: 'Export…' }).click();
      await page.getByRole('button', { name: 'Export as CSV' }).click();
      const path = page.getByTestId('activity-export-path');
      await path.waitFor();
      await page.getByText(new RegExp(`Saved ${executions.total} entr(y|ies) as CSV`)).waitFor();
      const csv = parseCsv(readFileSync((await path.textContent())!.trim(), 'utf8'));
      expect(csv.length - 1).toBe(executions.total);
      await page.getByRole('button', { name: 'Export…' }).click();
      await page.getByRole('button', { name: /Export as JSON Lines/ }).click();
      await page
        .getByText(new RegExp(`Saved ${executions.total} entr(y|ies) as JSON Lines`))
        .waitFor();
      const lines = readFileSync((await path.textContent())!.trim(), 'utf8')
        .split('\n')
        .filter((l) => l !== '');
      // A first line says what the file holds; one line per entry follows, with its hashes.
      const [header, ...entries] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(header).toMatchObject({ entries: executions.total, profileId: e2e().profileId });
      expect(entries.map((e) => e.seq)).toEqual(executions.entries.map((e) => e.seq).reverse());
      const hashes = entries.map((e) => e.hash);
      expect(hashes).toContain(detail.hash);
      await screenshot(page, 'activity-04-exported');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    "the profile's log: thousands of entries read a window at a time; an edited file is named",
    async () => {
      const { harness, profileId } = e2e();
      seedActivity(harness.desk.store, { profileId, profileName: 'Sandbox', count: 5_000 });
      const page = await e2e().browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      let listReads = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/api/activity.list')) listReads++;
      });
      await page.goto(e2e().host.url);
      await page.getByRole('button', { name: 'Profile activity' }).click();
      const all = await listed();
      await expect.poll(() => totalShown(page)).toBe(all.total);
      // The profile's log offers every kind, its own entries' too.
      await page.getByRole('button', { name: /^Kind: All kinds/ }).click();
      await page.getByRole('checkbox', { name: 'Profile created' }).waitFor();
      await page.keyboard.press('Escape');
      // The chain's check is read apart from the entries: it may come after them. The app's check
      // at start came before these entries; "Check again" walks them all.
      await page.getByRole('status').filter({ hasText: 'at the last check' }).waitFor();
      await page.getByRole('button', { name: 'Check again' }).click();
      const covered = async () => {
        const notice = await page.getByRole('status').filter({ hasText: 'The chain held' }).all();
        const text = notice.length === 1 ? await notice[0]!.textContent() : '';
        return Number(
          /covered the ([\d,]+)\s+entries/.exec(text ?? '')?.[1]?.replace(/,/g, '') ?? 0,
        );
      };
      await expect.poll(covered).toBeGreaterThanOrEqual(all.total);

      // The oldest entry, at the very bottom, is read when it comes into view, and only then.
      const oldest = await harness.desk.activity.list({
        profileId,
        offset: all.total - 1,
        limit: 1,
      });
      await page.getByRole('region', { name: /Activity entries/ }).focus();
      await page.keyboard.press('End');
      await activityTable(page).locator(`tr[data-seq="${oldest.entries[0]!.seq}"]`).waitFor();
      // Its day and its time read apart ("Nov 29, 2026, 07:18:56", not "2026,07:18:56").
      const time = await activityTable(page)
        .locator(`tr[data-seq="${oldest.entries[0]!.seq}"] td.time`)
        .evaluate((td) => ({
          text: td.textContent,
          parts: [...td.querySelectorAll('span')].map((s) => s.textContent),
        }));
      expect(time.parts).toHaveLength(2);
      expect(time.text).toBe(time.parts.join(' '));
      expect(listReads).toBeLessThanOrEqual(4);
      await screenshot(page, 'activity-05-profile-end');

      // Someone edits one entry in the file: "Check again" names it, and so does the next start.
      const [victim] = (await harness.desk.activity.list({ profileId, offset: 1_000, limit: 1 }))
        .entries;
      const db = new Database(join(harness.dataDir, 'strategy-desk.sqlite'));
      db.exec('DROP TRIGGER activity_no_update');
      db.prepare(`UPDATE activity SET at = ? WHERE seq = ?`).run(
        '2020-01-01T00:00:00.000Z',
        victim!.seq,
      );
      db.close();
      await page.getByRole('button', { name: 'Check again' }).click();
      const notice = page.getByRole('alert').filter({ hasText: 'altered' });
      await notice.waitFor();
      expect(await notice.textContent()).toContain(`Entry #${victim!.chainIndex} `);
      await screenshot(page, 'activity-06-chain-broken');

      expect(problems).toEqual([]);
      await page.close();

      await e2e().restart();
      const again = await e2e().browser.newPage({ viewport: { width: 1360, height: 900 } });
      await again.goto(e2e().host.url);
      await again.getByRole('button', { name: 'Profile activity' }).click();
      const atStart = again.getByRole('alert').filter({ hasText: 'altered' });
      await atStart.waitFor();
      expect(await atStart.textContent()).toContain(`Entry #${victim!.chainIndex} `);
      await atStart.getByRole('button', { name: `Open entry #${victim!.chainIndex}` }).click();
      await again
        .getByRole('heading', { name: new RegExp(`#${victim!.chainIndex}$`), level: 3 })
        .waitFor();
      await again.close();
    },
  );
});
