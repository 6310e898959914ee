import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from 'pg';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';
import { MEMBER_PASSWORD, postgres, useTeamDatabase } from '../support/team-cluster';

/**
 * Two desks, each with its own data folder and browser host, on one team database: alice submits
 * a draft's confirmation on hers; bob joins on his in Chromium, sees the submission arrive
 * without reloading (LISTEN/NOTIFY), and approves it with a note; alice's desk executes it once.
 */
// Both Chromium and PostgreSQL: skipped with a message naming the one missing.
const withParts = itNeeds(chromiumPart.available ? postgres : chromiumPart);
const CORE = DEMO_STRATEGY_IDS.coreEquity;
const team = useTeamDatabase();
let alice: AppE2E | undefined;
let bob: AppE2E | undefined;
let owner: Client;

beforeAll(async () => {
  if (!chromiumPart.available || !team.current) return;
  await team.current.addMember('alice', ['drafter', 'trader']);
  await team.current.addMember('bob', ['approver']);
  owner = await team.current.owner();
  alice = await openAppE2E({ stepMs: 0 });
  bob = await openAppE2E({ stepMs: 0 });
}, 180_000);
afterAll(async () => {
  await alice?.close();
  await bob?.close();
});

describe('a team of two desks', () => {
  withParts(
    'submitted on one desk, approved on the other in Chromium, executed once',
    async () => {
      const db = team.current!;
      const a = alice!.harness.desk;
      await a.team.join({
        profileId: alice!.profileId,
        host: '127.0.0.1',
        port: db.cluster.port,
        database: db.database,
        member: 'alice',
        password: MEMBER_PASSWORD,
        caFile: null,
      });

      // Bob joins from his profile's settings, where the profile's team is.
      const page = await bob!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      await page.goto(bob!.host.url);
      await page.getByRole('button', { name: 'Profile settings' }).click();
      const form = page.getByRole('form', { name: 'Join a team' });
      await form.getByLabel('Port').fill(String(db.cluster.port));
      await form.getByLabel('Database').fill(db.database);
      await form.getByLabel('Member login').fill('bob');
      await form.getByLabel('Password').fill(MEMBER_PASSWORD);
      await form.getByRole('button', { name: 'Join' }).click();
      const members = page.getByRole('region', { name: 'Members' });
      await members.getByRole('row', { name: /alice .*drafter, trader/ }).waitFor();
      await members.getByRole('row', { name: /bob .*approver/ }).waitFor();
      const waiting = page.getByRole('region', { name: 'Waiting for a decision' });
      await waiting.getByText('Nothing waits for a decision.').waitFor();

      // Alice submits her confirmation; it appears on bob's screen by the team's notice.
      const draft = await a.drafts.create({
        profileId: alice!.profileId,
        strategyId: CORE,
        name: 'Tilt',
        start: 'target',
      });
      await a.drafts.saveRows({
        draftId: draft.id,
        rows: draft.rows.map((r, i) => ({ ...r, weight: i === 0 ? '5' : r.weight })),
      });
      const preview = await a.versions.prepareExecute({ draftId: draft.id });
      const submission = await a.team.submit({ draftId: draft.id, planKey: preview.planKey });
      const row = waiting.locator(`tr[data-submission="${submission.id}"]`);
      await row.getByText('Core Equity — Tilt').waitFor();
      await row.getByLabel('Note on Core Equity — Tilt').fill('within the band');
      await row.getByRole('button', { name: 'Approve' }).click();
      const decided = page.getByRole('region', { name: 'Decided' });
      await decided
        .locator(`tr[data-submission="${submission.id}"]`)
        .getByText('within the band')
        .waitFor();

      // Alice's desk executes it: the approval is used, once.
      const execute = () =>
        a.versions.execute({
          draftId: draft.id,
          confirmation: { planKey: preview.planKey, acknowledgedStale: true, againAfter: null },
        });
      const outcome = await execute();
      expect(a.store.journal.get(outcome.journalId)?.state).toBe('accepted');
      const { rows } = await owner.query(
        'SELECT state, decided_by, used_by FROM team.submissions WHERE id = $1',
        [submission.id],
      );
      expect(rows[0]).toEqual({ state: 'used', decided_by: 'bob', used_by: 'alice' });
      await decided.locator(`tr[data-submission="${submission.id}"]`).getByText('used').waitFor();
      expect(problems).toEqual([]);
      await page.close();
    },
    120_000,
  );
});
