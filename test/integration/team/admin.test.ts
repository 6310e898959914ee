import { describe, expect } from 'vitest';
import { Client } from 'pg';
import { runTeamAdmin } from '../../../electron/core/team/admin';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';

// `npm run team -- …` as the team's owner runs it, against a real PostgreSQL.

const team = useTeamDatabase('team_admin');

async function run(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runTeamAdmin(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env,
  });
  return { code, out, err };
}

describe('npm run team', () => {
  it('inits a fresh database once, adds a member who can connect, and lists them', async () => {
    const cluster = team.current!.cluster;
    const owner = await team.current!.owner();
    await owner.query('CREATE DATABASE fresh_team');
    const url = cluster.url('fresh_team');
    expect(await run(['init', url])).toMatchObject({
      code: 0,
      out: ['The team store is at schema version 8 (was 0).'],
    });
    expect((await run(['init', url])).out).toEqual([
      'The team store is already at schema version 8.',
    ]);

    const added = await run(['add-member', 'gina', 'approver,trader', '--name', 'Gina Ray'], {
      TEAM_ADMIN_URL: url,
    });
    expect(added.code).toBe(0);
    const password = /^Password for gina: (\S+)$/.exec(added.out[1]!)![1]!;
    const gina = new Client({ connectionString: cluster.url('fresh_team', 'gina', password) });
    await gina.connect();
    const { rows } = await gina.query('SELECT session_user AS who');
    expect(rows[0].who).toBe('gina');
    await gina.end();

    const listed = await run(['members', '--url', url]);
    expect(listed.out).toEqual(['gina\tGina Ray\tapprover, trader']);
  });

  it('names what is wrong', async () => {
    const url = team.current!.cluster.url('team_admin');
    const badRole = await run(['add-member', 'hal', 'approver,boss', '--url', url]);
    expect(badRole.code).toBe(1);
    expect(badRole.err[0]).toMatch(/not a role: boss/);
    const badLogin = await run(['add-member', 'Hal Smith', 'approver', '--url', url], {
      TEAM_MEMBER_PASSWORD: 'a-long-enough-password',
    });
    expect(badLogin.err[0]).toMatch(/A member's login is lower-case letters/);
    const noUrl = await run(['members']);
    expect(noUrl.err[0]).toMatch(/^Usage:/);
    const badHours = await run(['policy', 'batches', '--hours', '0', '--url', url]);
    expect(badHours.err[0]).toMatch(/--hours is a whole number/);
    const policy = await run(['policy', 'batches', '--hours', '8', '--url', url]);
    expect(policy.out).toEqual(['Approval needed for: batches; an approval lasts 8 h.']);
    const owner = await team.current!.owner();
    const { rows } = await owner.query(
      'SELECT approval_policy, extract(epoch FROM approval_ttl)::int AS seconds FROM team.settings',
    );
    expect(rows[0]).toEqual({ approval_policy: 'batches', seconds: 8 * 3600 });
  });
});
