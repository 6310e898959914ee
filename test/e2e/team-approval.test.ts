import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from 'pg';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems } from '../support/e2e-browser';
import { layoutOf } from '../support/e2e-layout';
import { itNeeds } from '../support/system-parts';
import { MEMBER_PASSWORD, postgres, useTeamDatabase } from '../support/team-cluster';

/**
 * Two desks, each with its own data folder and browser host, on one team database: alice submits
 * a draft's confirmation on hers; bob joins on his in Chromium, sees the submission arrive
 * without reloading (LISTEN/NOTIFY), and approves it with a note; alice's desk, open in Chromium
 * with notifications allowed, tells her by one desktop notification, and executes it once.
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
      await db.join(a, alice!.profileId, 'alice');

      // Alice's desk in Chromium, notifications allowed, each one the page makes recorded.
      const aliceContext = await alice!.browser.newContext({
        viewport: { width: 1400, height: 900 },
      });
      await aliceContext.grantPermissions(['notifications'], {
        origin: new URL(alice!.host.url).origin,
      });
      await aliceContext.addInitScript(() => {
        const told: string[] = [];
        const System = window.Notification;
        class Recorded extends System {
          constructor(title: string, options?: NotificationOptions) {
            told.push(`${title} | ${options?.body ?? ''}`);
            super(title, options);
          }
        }
        Object.assign(window, { told, Notification: Recorded });
      });
      const alicePage = await aliceContext.newPage();
      const aliceProblems = collectPageProblems(alicePage);
      await alicePage.goto(alice!.host.url);
      await alicePage.getByRole('heading', { name: 'Book', level: 1 }).waitFor();
      const told = () => alicePage.evaluate(() => (window as unknown as { told: string[] }).told);

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
      // Its weights wrap in their cell: the note and Approve are in view, nothing scrolls sideways.
      expect(await layoutOf(page).sideways()).toBe(false);
      await row.getByLabel('Note on Core Equity — Tilt').fill('within the band');
      await row.getByRole('button', { name: 'Approve' }).click();
      const decided = page.getByRole('region', { name: 'Decided' });
      await decided
        .locator(`tr[data-submission="${submission.id}"]`)
        .getByText('within the band')
        .waitFor();
      // Alice's desk tells her, once, whatever screen she is on.
      const decision =
        'Approved: Core Equity — Tilt | bob approved your submission: “within the band”. It can be executed as submitted, once.';
      await expect.poll(told).toEqual([decision]);

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

      // Bob reads the team's log in the Activity view, each entry with the member who wrote it.
      await expect
        .poll(async () => (await owner.query('SELECT 1 FROM team.claims')).rowCount)
        .toBe(0);
      const logged = async () =>
        (
          await owner.query<{ seq: string; member: string; kind: string }>(
            'SELECT seq::text, member::text, kind FROM team.activity ORDER BY seq',
          )
        ).rows;
      const written = await logged();
      expect(written.map((e) => [e.member, e.kind])).toEqual([
        ['alice', 'approval.submitted'],
        ['bob', 'approval.approved'],
        ['alice', 'claim.taken'],
        ['alice', 'approval.used'],
        ['alice', 'version.executed'],
        ['alice', 'claim.released'],
      ]);
      await page.getByRole('button', { name: 'Profile activity' }).click();
      await page.getByLabel('Log of').selectOption({ label: 'Team log' });
      const log = page.getByRole('table', { name: 'Team log' });
      const total = page.getByTestId('team-activity-total');
      await total.getByText('6 entries').waitFor();
      const cells = (seq: string) =>
        log
          .locator(`tr[data-seq="${seq}"] td`)
          .evaluateAll((tds) => tds.map((td) => td.textContent?.trim() ?? ''));
      await log.locator(`tr[data-seq="${written.at(-1)!.seq}"]`).waitFor();
      for (const entry of written)
        expect((await cells(entry.seq)).slice(1, 2)).toEqual([entry.member]);
      expect(await cells(written[1]!.seq)).toEqual([
        expect.any(String),
        'bob',
        (await bob!.harness.desk.team.get({ profileId: bob!.profileId })).desk,
        'Approved',
        // A draft's decision names its strategy (team migration 007).
        'Core Equity',
        `Submission ${submission.id.slice(0, 8)}: “within the band”`,
      ]);
      // The submission is named by the same short id as its decision and its use.
      expect((await cells(written[0]!.seq)).at(-1)).toBe(
        `Submission ${submission.id.slice(0, 8)}: “Core Equity — Tilt”`,
      );
      // The newest rows are the first in view: alice's release, then the version executed.
      const order = await log
        .locator('tbody tr[data-seq]')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-seq')));
      expect(order).toEqual(written.map((e) => e.seq).reverse());

      // An entry written on alice's desk joins the top of bob's view by the team's notice.
      const second = await a.drafts.create({
        profileId: alice!.profileId,
        strategyId: CORE,
        name: 'Tilt again',
        start: 'target',
      });
      await a.drafts.saveRows({
        draftId: second.id,
        rows: second.rows.map((r, i) => ({ ...r, weight: i === 0 ? '6' : r.weight })),
      });
      const secondPreview = await a.versions.prepareExecute({ draftId: second.id });
      await a.team.submit({ draftId: second.id, planKey: secondPreview.planKey });
      await total.getByText('7 entries').waitFor();
      const newest = (await logged()).at(-1)!;
      expect(newest).toMatchObject({ member: 'alice', kind: 'approval.submitted' });
      expect((await cells(newest.seq)).slice(1, 4)).toEqual([
        'alice',
        expect.any(String),
        'Submitted for approval',
      ]);

      // Filtered by member: bob's one decision.
      await page.getByLabel('Member').selectOption('bob');
      await total.getByText('1 entry').waitFor();
      expect(
        await log
          .locator('tbody tr[data-seq]')
          .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-seq'))),
      ).toEqual([written[1]!.seq]);
      expect(problems).toEqual([]);
      // Neither the approval's use nor alice's second submission told her anything more.
      expect(await told()).toEqual([decision]);
      expect(aliceProblems).toEqual([]);
      await page.close();
      await aliceContext.close();
    },
    120_000,
  );
});
