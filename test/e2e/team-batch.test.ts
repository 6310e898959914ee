import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from 'pg';
import { DEMO_BOOK_STRATEGY_IDS as BOOK, DEMO_MODEL } from '../../electron/sandbox';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';
import { postgres, useTeamDatabase } from '../support/team-cluster';

/**
 * A batch's sign-off submitted for approval in Chromium: alice's desk (the demo model and its
 * followers, a profile in a team) reviews, acknowledges the uncertain lines and submits; bob, an
 * approver at his own PostgreSQL login, approves; Execute then sends each line on its approval.
 */
const withParts = itNeeds(chromiumPart.available ? postgres : chromiumPart);
const FOLLOWERS = DEMO_MODEL.followers.map((f) => f.strategyId);
const batchView = (page: Page) => page.getByRole('region', { name: 'Batch', exact: true });
const team = useTeamDatabase();
let app: AppE2E | undefined;
let bob: Client;
let owner: Client;

beforeAll(async () => {
  if (!chromiumPart.available || !team.current) return;
  await team.current.addMember('alice', ['drafter', 'trader']);
  await team.current.addMember('bob', ['approver']);
  bob = await team.current.as('bob');
  owner = await team.current.owner();
  app = await openAppE2E({ stepMs: 5, demoModel: true });
}, 180_000);
afterAll(async () => {
  await app?.close();
});

describe('a batch submitted for approval in the app', () => {
  withParts(
    'submitted from the sign-off with its acknowledgements, approved by another member, then sent',
    async () => {
      const db = team.current!;
      const { harness, profileId } = app!;
      const desk = harness.desk;
      await db.join(desk, profileId, 'alice');
      const page = await app!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      await page.getByRole('button', { name: /^Demo model/ }).click();
      const part = page.getByRole('region', { name: 'Strategies following this model' });
      for (const id of FOLLOWERS)
        await part.locator(`tr[data-strategy="${id}"]`).getByRole('checkbox').check();
      await part.getByRole('button', { name: 'Review chosen (7)…' }).click();
      await batchView(page)
        .getByTestId('batch-words')
        .filter({ hasText: 'reviewed: 4 to send, 3 excluded' })
        .waitFor();
      const batchId = (await batchView(page).getAttribute('data-batch'))!;

      const sign = batchView(page).getByRole('region', { name: 'Sign-off' });
      const submit = sign.getByRole('button', { name: 'Submit for approval' });
      // Like Execute: not before every uncertain line is acknowledged.
      expect(await submit.isDisabled()).toBe(true);
      await sign.getByLabel('I accept the uncertain predictions for these 2 strategies').check();
      await submit.click();
      await sign
        .getByRole('status')
        .filter({ hasText: /^Submitted for approval: Batch: Demo model \(revision 1\) for / })
        .waitFor();
      const { rows } = await owner.query<{ id: string; state: string; content: string }>(
        "SELECT id, state, content FROM team.submissions WHERE kind = 'batch' AND subject = $1",
        [batchId],
      );
      expect(rows).toHaveLength(1);
      const content = JSON.parse(rows[0]!.content) as {
        acknowledgements: { strategyId: string }[];
        lines: string[];
      };
      expect(content.acknowledgements.map((a) => a.strategyId).sort()).toEqual(
        [BOOK.balancedGrowth, BOOK.globalGrowth].sort(),
      );
      const lines = content.lines.map((l) => JSON.parse(l) as { acknowledged: boolean });
      expect(lines).toHaveLength(4);
      expect(lines.filter((l) => l.acknowledged)).toHaveLength(2);
      // The approver's desk reads each strategy with its weights.
      const seen = (await desk.team.submissions({ profileId })).find((s) => s.id === rows[0]!.id)!;
      expect(seen.lines.filter((l) => l.acknowledged).map((l) => l.strategyName)).toEqual([
        'Balanced Growth',
        'Global Growth',
      ]);

      await bob.query("SELECT team.decide($1, true, 'all four fine', 'desk-bob')", [rows[0]!.id]);
      // The sign-off's status no longer says it waits: it tells the decision, as the notification.
      await sign
        .getByRole('status')
        .filter({ hasText: /^Approved: Batch: Demo model \(revision 1\) for / })
        .filter({
          hasText:
            'bob approved your submission: “all four fine”. It can be executed as submitted, once.',
        })
        .waitFor();
      await sign.getByRole('button', { name: 'Execute 4 strategies' }).click();
      const final = page.getByRole('dialog', { name: 'Send 4 strategies now?' });
      await final.getByRole('button', { name: 'Send 4 strategies' }).click();
      await expect
        .poll(() => desk.store.batches.get(batchId)?.sendingOverAt ?? null)
        .not.toBe(null);
      // Every line was armed on its approval: none refused for want of one.
      const items = (await desk.batches.get({ batchId })).items.filter(
        (i) => i.state !== 'excluded',
      );
      expect(items).toHaveLength(4);
      for (const item of items) expect(item.reason ?? '').not.toMatch(/approval/);
      const used = await owner.query(
        'SELECT s.state, count(l.used_at)::int AS used FROM team.submissions s JOIN team.submission_lines l ON l.submission_id = s.id WHERE s.id = $1 GROUP BY 1',
        [rows[0]!.id],
      );
      expect(used.rows[0]).toEqual({ state: 'used', used: 4 });
      expect(problems).toEqual([]);
      await page.close();
    },
    120_000,
  );
});
