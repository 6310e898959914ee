import { describe, expect } from 'vitest';
import type { Client } from 'pg';
import { entryHash } from '../../../electron/core/store/repositories/activity-canonical';
import { migrateTeamStore, teamSchemaVersion } from '../../../electron/core/team/migrate';
import { LATEST_TEAM_SCHEMA_VERSION } from '../../../electron/core/team/migrations';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';

// Migration 001 of the team store: every role rule tried with the member's own credentials in
// raw SQL, as a member at psql would.

const team = useTeamDatabase();
const db = () => team.current!;

let ready = false;
let alice: Client; // drafter, trader
let bob: Client; // approver
let dave: Client; // drafter only
let erin: Client; // drafter and approver

async function members(): Promise<void> {
  if (ready) return;
  await db().addMember('alice', ['drafter', 'trader']);
  await db().addMember('bob', ['approver']);
  await db().addMember('carol', ['model-admin']);
  await db().addMember('dave', ['drafter']);
  await db().addMember('erin', ['drafter', 'approver']);
  alice = await db().as('alice');
  bob = await db().as('bob');
  dave = await db().as('dave');
  erin = await db().as('erin');
  ready = true;
}

const content = (weight: string) =>
  JSON.stringify({ positions: [{ symbol: 'AAPL', weight }], strategy: 's-1' });
const submit = (who: Client, subject: string, body: string) =>
  who
    .query<{ id: string }>("SELECT team.submit('draft', $1, 'Core Equity', $2, 'desk-a') AS id", [
      subject,
      body,
    ])
    .then((r) => r.rows[0]!.id);
const decide = (who: Client, id: string, approve: boolean) =>
  who.query("SELECT team.decide($1, $2, 'looks right', 'desk-b')", [id, approve]);
const use = (who: Client, subject: string, body: string) =>
  who.query("SELECT team.use_approval($1, $2, 'desk-a')", [subject, body]);

describe('migration 001: the team store', () => {
  it('applies once, records its version, and refuses a newer schema', async () => {
    const owner = await db().owner();
    expect(await teamSchemaVersion(owner)).toBe(LATEST_TEAM_SCHEMA_VERSION);
    expect(await migrateTeamStore(owner)).toEqual({
      from: LATEST_TEAM_SCHEMA_VERSION,
      to: LATEST_TEAM_SCHEMA_VERSION,
    });
    await owner.query("INSERT INTO team.schema_migrations (version, name) VALUES (99, 'future')");
    await expect(migrateTeamStore(owner)).rejects.toThrow(
      /schema version 99, newer than this desk/,
    );
    await owner.query('DELETE FROM team.schema_migrations WHERE version = 99');
  });

  it('lists members with the roles PostgreSQL holds for them', async () => {
    await members();
    const { rows } = await alice.query(
      'SELECT login, drafter, approver, trader, model_admin FROM team.member_roles ORDER BY login',
    );
    expect(rows).toEqual([
      { login: 'alice', drafter: true, approver: false, trader: true, model_admin: false },
      { login: 'bob', drafter: false, approver: true, trader: false, model_admin: false },
      { login: 'carol', drafter: false, approver: false, trader: false, model_admin: true },
      { login: 'dave', drafter: true, approver: false, trader: false, model_admin: false },
      { login: 'erin', drafter: true, approver: true, trader: false, model_admin: false },
    ]);
  });

  it('never lets a submitter approve their own submission, even an approver', async () => {
    await members();
    const own = await submit(erin, 'draft:own', content('10'));
    await expect(decide(erin, own, true)).rejects.toMatchObject({ code: 'DK003' });
    await expect(
      erin.query("UPDATE team.submissions SET state = 'approved' WHERE id = $1", [own]),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(
      erin.query(
        "INSERT INTO team.submissions (kind, subject, title, content, content_hash, submitted_by, submitted_from, submitted_at, state) VALUES ('draft', 'x', 'x', '{}', 'x', 'bob', 'd', now(), 'approved')",
      ),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(decide(dave, own, true)).rejects.toMatchObject({ code: '42501' });
    const { rows } = await bob.query('SELECT state FROM team.submissions WHERE id = $1', [own]);
    expect(rows[0].state).toBe('submitted');
  });

  it('executes only content that hashes to an approved, unexpired, unused approval', async () => {
    await members();
    await expect(use(alice, 'draft:a', content('10'))).rejects.toMatchObject({ code: 'DK001' });
    const id = await submit(alice, 'draft:a', content('10'));
    await expect(use(alice, 'draft:a', content('10'))).rejects.toMatchObject({ code: 'DK001' });
    await decide(bob, id, true);
    await expect(decide(bob, id, false)).rejects.toMatchObject({ code: 'DK005' });
    // A weight changed after approval voids it.
    await expect(use(alice, 'draft:a', content('11'))).rejects.toMatchObject({ code: 'DK002' });
    await expect(use(dave, 'draft:a', content('10'))).rejects.toMatchObject({ code: '42501' });
    const used = await use(alice, 'draft:a', content('10'));
    expect(used.rowCount).toBe(1);
    // Used once.
    await expect(use(alice, 'draft:a', content('10'))).rejects.toMatchObject({ code: 'DK002' });
  });

  it('lets an approval expire after the team setting', async () => {
    await members();
    const owner = await db().owner();
    await owner.query("SELECT team.set_policy('every', interval '1 millisecond', 'owner-desk')");
    const id = await submit(alice, 'draft:late', content('12'));
    await decide(bob, id, true);
    await owner.query('SELECT pg_sleep(0.01)');
    await expect(use(alice, 'draft:late', content('12'))).rejects.toMatchObject({ code: 'DK002' });
    await owner.query("SELECT team.set_policy('every', interval '24 hours', 'owner-desk')");
    await expect(
      alice.query("SELECT team.set_policy('none', interval '1 hour', 'desk-a')"),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it('keeps the log append-only and hash-chained, for members and the owner alike', async () => {
    await members();
    await alice.query(
      "INSERT INTO team.activity (desk, kind, strategy_id, payload) VALUES ('desk-a', 'draft.note', 's-1', '{\"note\":\"hi\"}')",
    );
    await expect(alice.query("UPDATE team.activity SET kind = 'x'")).rejects.toMatchObject({
      code: '42501',
    });
    await expect(alice.query('DELETE FROM team.activity')).rejects.toMatchObject({ code: '42501' });
    const owner = await db().owner();
    await expect(owner.query("UPDATE team.activity SET kind = 'x'")).rejects.toMatchObject({
      code: 'DK010',
    });
    await expect(owner.query('TRUNCATE team.activity')).rejects.toMatchObject({ code: 'DK010' });
    const { rows } = await bob.query<{
      seq: string;
      member: string;
      hash: string;
      previous_hash: string;
      canonical: string;
    }>('SELECT a.*, team.entry_canonical(a) AS canonical FROM team.activity a ORDER BY seq');
    expect(rows.length).toBeGreaterThan(3);
    let previous = '0'.repeat(64);
    for (const row of rows) {
      expect(row.previous_hash).toBe(previous);
      expect(row.hash).toBe(entryHash(previous, row.canonical));
      previous = row.hash;
    }
    // Who wrote it is the database's word, not the desk's.
    expect(rows.find((r) => r.canonical.includes('draft.note'))!.member).toBe('alice');
  });

  it('holds one claim per strategy across the team, released with what was found', async () => {
    await members();
    await db().addMember('frank', ['trader']);
    const frank = await db().as('frank');
    const take = (who: Client, key: string, desk: string) =>
      who.query('SELECT team.take_claim($1, $2, $3)', ['s-9', key, desk]);
    await take(alice, 'key-1', 'desk-a');
    await take(alice, 'key-1', 'desk-a'); // the same execution after a restart
    await expect(take(frank, 'key-2', 'desk-f')).rejects.toMatchObject({ code: 'DK004' });
    await expect(take(bob, 'key-3', 'desk-b')).rejects.toMatchObject({ code: '42501' });
    await expect(
      frank.query("SELECT team.release_claim('s-9', 'key-1', 'desk-f', '')"),
    ).rejects.toThrow(/what the service was found to hold/);
    await frank.query(
      "SELECT team.release_claim('s-9', 'key-1', 'desk-f', 'version v-1 COMPLETE read at 10:02')",
    );
    await take(frank, 'key-2', 'desk-f');
    await expect(frank.query('DELETE FROM team.claims')).rejects.toMatchObject({ code: '42501' });
  });

  it('announces a submission to a listening desk', async () => {
    await members();
    const listener = await db().as('bob');
    await listener.query('LISTEN desk_team');
    const heard = new Promise<{ topic: string; key: string }>((resolve) =>
      listener.on('notification', (n) => {
        const payload = JSON.parse(n.payload!) as { topic: string; key: string };
        if (payload.topic === 'submission') resolve(payload);
      }),
    );
    const id = await submit(alice, 'draft:heard', content('13'));
    expect(await heard).toEqual({ table: 'submissions', topic: 'submission', key: id });
  });
});
