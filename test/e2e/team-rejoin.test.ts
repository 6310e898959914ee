import { afterAll, beforeAll, describe, expect } from 'vitest';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';
import { postgres, useTeamDatabase } from '../support/team-cluster';

/**
 * A member's password changed at the team store (or lost with a keychain): the Team part of
 * Profile settings says the team store stopped answering and asks for the password again; with
 * it the desk is in the team again, without leaving it first.
 */
const withParts = itNeeds(chromiumPart.available ? postgres : chromiumPart);
const team = useTeamDatabase();
let app: AppE2E | undefined;

beforeAll(async () => {
  if (!chromiumPart.available || !team.current) return;
  await team.current.addMember('alice', ['drafter']);
  app = await openAppE2E({ stepMs: 0 });
}, 180_000);
afterAll(async () => {
  await app?.close();
});

describe('a team password entered again', () => {
  withParts(
    'the team part asks for it once the store refuses the login, and joins again with it',
    async () => {
      const db = team.current!;
      await db.join(app!.harness.desk, app!.profileId, 'alice');
      const page = await app!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      await page.getByRole('button', { name: 'Profile settings' }).click();
      const members = page.getByRole('region', { name: 'Members' });
      await members.getByRole('row', { name: /alice/ }).waitFor();

      // The owner changes alice's password and ends her sessions.
      const owner = await db.owner();
      await owner.query("ALTER ROLE alice PASSWORD 'a-changed-password'");
      await owner.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'alice'",
      );
      await page.getByText('The team store stopped answering').waitFor();
      const again = page.getByRole('form', { name: 'Enter the team password again' });
      await again.getByLabel(/If the password of alice changed/).fill('a-changed-password');
      await again.getByRole('button', { name: 'Join again' }).click();
      await expect
        .poll(() => page.getByText('The team store stopped answering').count(), { timeout: 20_000 })
        .toBe(0);
      await members.getByRole('row', { name: /alice/ }).waitFor();
      expect(await again.count()).toBe(0);
      expect(problems).toEqual([]);
    },
    120_000,
  );
});
