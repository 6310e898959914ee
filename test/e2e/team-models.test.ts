import { afterAll, beforeAll, describe, expect } from 'vitest';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';
import { postgres, useTeamDatabase } from '../support/team-cluster';

/**
 * The team's model library in Chromium, on two desks with their own data folders and browser
 * hosts and one team database: carol copies a model of her desk's own library into the team's
 * on her Models screen; it appears on dan's Models screen without a reload; dan saves a revision
 * on his desk, and carol's screen, open on the model, says so and shows it.
 */
const withParts = itNeeds(chromiumPart.available ? postgres : chromiumPart);
const team = useTeamDatabase();
let carol: AppE2E | undefined;
let dan: AppE2E | undefined;

beforeAll(async () => {
  if (!chromiumPart.available || !team.current) return;
  await team.current.addMember('carol', ['drafter', 'model-admin']);
  await team.current.addMember('dan', ['drafter', 'model-admin']);
  carol = await openAppE2E({ stepMs: 0 });
  dan = await openAppE2E({ stepMs: 0 });
}, 180_000);
afterAll(async () => {
  await carol?.close();
  await dan?.close();
});

describe('a team’s model library on two desks', () => {
  withParts(
    'copied into the team on one desk, shown and saved on the other, told back',
    async () => {
      const db = team.current!;
      const c = carol!.harness.desk;
      const d = dan!.harness.desk;
      const own = await c.models.create({ name: 'Income sleeve', start: { kind: 'empty' } });
      await c.models.saveRevision({
        modelId: own.id,
        rows: [
          { symbol: 'AGG', weight: '40' },
          { symbol: 'MSFT', weight: '10.50' },
        ],
        note: 'first cut',
      });
      await db.join(c, carol!.profileId, 'carol');
      await db.join(d, dan!.profileId, 'dan');

      const open = async (app: AppE2E) => {
        const page = await app.browser.newPage({ viewport: { width: 1360, height: 900 } });
        const problems = collectPageProblems(page);
        await page.goto(app.host.url);
        await page.getByRole('button', { name: 'Models', exact: true }).click();
        return { page, problems };
      };
      const onDan = await open(dan!);
      await onDan.page.getByText('No model yet.').waitFor();
      const onCarol = await open(carol!);
      const list = onCarol.page.getByRole('navigation', { name: 'Models' });
      await list.getByText('On this desk only (not the team’s)').waitFor();
      await list.getByRole('button', { name: /Income sleeve/ }).click();
      await onCarol.page.getByRole('button', { name: 'Copy to the team’s library' }).click();
      await list.getByRole('button', { name: /Income sleeve\s*TEAM/ }).waitFor();
      await onCarol.page.getByText(/The team’s model: every desk of the team shows it/).waitFor();
      await screenshot(onCarol.page, 'team-models-01-copied');

      // Dan's screen shows it by the team's notice, with carol's revision.
      const danList = onDan.page.getByRole('navigation', { name: 'Models' });
      await danList.getByRole('button', { name: /Income sleeve\s*TEAM/ }).click();
      const revisions = onDan.page.getByRole('region', { name: 'Revisions' });
      await revisions.getByText('by carol').waitFor();
      const copied = (await d.models.list({ profileId: dan!.profileId })).find(
        (m) => m.library === 'team',
      )!;
      expect(copied.latest!.hash).toBe((await c.models.get({ modelId: own.id })).latest!.hash);

      // Dan saves revision 2; carol's screen, open on revision 1, says so and shows it.
      await d.models.saveRevision({
        modelId: copied.id,
        rows: [
          { symbol: 'AGG', weight: '45' },
          { symbol: 'MSFT', weight: '10.5' },
        ],
        note: 'more bonds',
        basedOn: copied.latest!.id,
        profileId: dan!.profileId,
      });
      const told = onCarol.page.getByRole('status').filter({ hasText: 'Revision 2 was saved' });
      await told.getByText('(by dan)', { exact: false }).waitFor();
      await told.getByRole('button', { name: 'Show it' }).click();
      await onCarol.page.getByText('As revision 2').waitFor();
      await onCarol.page.getByRole('cell', { name: 'more bonds' }).waitFor();
      await screenshot(onCarol.page, 'team-models-02-saved-elsewhere');
      expect(onCarol.problems).toEqual([]);
      expect(onDan.problems).toEqual([]);
    },
    120_000,
  );
});
