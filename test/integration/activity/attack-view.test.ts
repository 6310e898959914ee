import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import { seedActivity } from '../../support/activity-seed';
import { chromiumPart, collectPageProblems } from '../../support/e2e-browser';
import { useVersionsE2E } from '../../support/e2e-versions-setup';
import { itNeeds } from '../../support/system-parts';

const withChromium = itNeeds(chromiumPart);
const e2e = useVersionsE2E(chromiumPart.available);

/**
 * The Activity view in Chromium over a file edited into values the app never writes: the
 * entries still show, and "Check again" says in words where the chain breaks.
 */
describe('the Activity view over an edited log', () => {
  withChromium('shows an entry of an unknown kind and names the break plainly', async () => {
    const { harness, profileId } = e2e();
    const { lastSeq } = seedActivity(harness.desk.store, {
      profileId,
      profileName: 'Sandbox',
      count: 20,
    });
    const victim = harness.desk.store.activity.get(lastSeq - 5)!;
    const undated = lastSeq - 3;
    const db = new Database(join(harness.dataDir, 'strategy-desk.sqlite'));
    db.exec('DROP TRIGGER activity_no_update');
    db.prepare(`UPDATE activity SET kind = 'bribe-paid' WHERE seq = ?`).run(victim.seq);
    db.prepare(`UPDATE activity SET at = 'yesterday', strategy_id = 'core' WHERE seq = ?`).run(
      undated,
    );
    db.close();

    const page = await e2e().browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(e2e().host.url);
    await page.getByRole('button', { name: 'Profile activity' }).click();
    const row = page
      .getByRole('table', { name: 'Activity' })
      .locator(`tbody tr.row[data-seq="${victim.seq}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Unknown kind “bribe-paid”');
    expect(await row.textContent()).toContain(
      'An entry of a kind the app does not write (“bribe-paid”): the file was edited.',
    );
    expect(await page.locator(`tr.row[data-seq="${undated}"] time`).textContent()).toBe(
      'yesterday',
    );
    // Its details open too.
    await row.getByRole('button', { name: 'Unknown kind “bribe-paid”' }).click();
    await page
      .getByRole('heading', { name: `Unknown kind “bribe-paid” #${victim.chain_index}`, level: 3 })
      .waitFor();

    await page.getByRole('button', { name: 'Check again' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'altered' });
    await notice.waitFor();
    const time = `${victim.at.slice(0, 10)} ${victim.at.slice(11, 16)} UTC`;
    // The reason is read at once, not folded away behind a "Details" toggle.
    await notice
      .getByText(
        `Entry ${victim.chain_index} of profile Sandbox (${time}) does not match its hash: its content was changed after it was written.`,
        { exact: true },
      )
      .waitFor({ state: 'visible' });
    expect(problems).toEqual([]);
    await page.close();
  });
});
