import { describe, expect } from 'vitest';
import type { Client } from 'pg';
import { teamActivityPage, teamActivityQueries } from '../../../electron/core/activity/team-log';
import type { TeamActivityFilter } from '../../../shared/activity/team-views';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';

// Team migration 002: the team's log filtered by day, kind, member or strategy through indexes,
// and each filter's total from the per-day counts, read with a member's own credentials.

const team = useTeamDatabase();
const db = () => team.current!;

const KINDS = [
  'approval.submitted',
  'approval.approved',
  'claim.taken',
  'claim.released',
  'model.saved',
];
let alice: Client;
let bob: Client;
let carol: Client;
let ready = false;

/** `count` entries written by a member through the chain's trigger (kinds and strategies cycling). */
const write = (who: Client, count: number) =>
  who.query(
    `INSERT INTO team.activity (desk, kind, strategy_id, payload)
     SELECT 'desk-x', ($2::text[])[1 + i % 5], CASE WHEN i % 4 = 0 THEN NULL ELSE 's-' || (i % 10) END, '{}'
       FROM generate_series(1, $1::int) AS i`,
    [count, KINDS],
  );

async function seeded(): Promise<void> {
  if (ready) return;
  await db().addMember('alice', ['drafter']);
  await db().addMember('bob', ['approver']);
  await db().addMember('carol', ['model-admin']);
  alice = await db().as('alice');
  bob = await db().as('bob');
  await write(alice, 15_000);
  await write(bob, 5_000);
  // A member, a kind and a strategy of few entries: where reading the log by seq would cost most.
  carol = await db().as('carol');
  await carol.query(
    `INSERT INTO team.activity (desk, kind, strategy_id, payload)
     SELECT 'desk-y', 'model.assigned', 's-rare', '{}' FROM generate_series(1, 40)`,
  );
  await (await db().owner()).query('VACUUM ANALYZE team.activity');
  ready = true;
}

const plan = async (sql: string, params: unknown[]) =>
  (await alice.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows
    .map((r) => r['QUERY PLAN'])
    .join('\n');

const today = new Date().toISOString().slice(0, 10);

describe('team migration 002: the team log filtered without reading it whole', () => {
  it('reads a filtered window through the filter’s index, and its total from the counts', async () => {
    await seeded();
    const cases: [Omit<TeamActivityFilter, 'profileId'>, string][] = [
      [{ kinds: ['model.assigned'] }, 'activity_kind'],
      [{ member: 'carol' }, 'activity_member'],
      [{ strategyId: 's-rare' }, 'activity_strategy'],
      [{ from: '2020-01-01', to: '2020-01-01' }, 'activity_at'],
    ];
    for (const [filter, index] of cases) {
      const queries = teamActivityQueries(filter);
      const page = await plan(queries.page.sql, [...queries.page.params, 50, 0]);
      expect(page, JSON.stringify(filter)).toContain(index);
      expect(page, JSON.stringify(filter)).not.toMatch(/Seq Scan/);
      const total = await plan(queries.total.sql, queries.total.params);
      expect(total).toMatch(/activity_(counts|totals)/);
      expect(total).not.toMatch(/on activity /);
    }
  });

  it('totals every filter as the entries themselves count, and pages newest first', async () => {
    await seeded();
    const filters = [
      {},
      { kinds: ['claim.taken'] },
      { kinds: ['model.saved', 'approval.approved'] },
      { member: 'bob' },
      { strategyId: 's-3' },
      { member: 'alice', kinds: ['claim.released'], strategyId: 's-1' },
      { from: today, to: today },
      { to: '2020-01-01' },
    ];
    for (const filter of filters) {
      const { page } = teamActivityQueries(filter);
      const counted = await bob.query<{ n: string }>(
        `SELECT count(*) AS n FROM (${page.sql}) AS matching`,
        [...page.params, 1_000_000, 0],
      );
      const window = await teamActivityPage(bob, filter, 0, 25);
      expect(window.total, JSON.stringify(filter)).toBe(Number(counted.rows[0]!.n));
      const seqs = window.entries.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
      expect(seqs.length).toBe(Math.min(25, window.total));
    }
    expect((await teamActivityPage(bob, {}, 0, 1)).total).toBe(20_040);
    const [newest] = (await teamActivityPage(alice, { member: 'bob' }, 0, 1)).entries;
    expect(newest).toMatchObject({ seq: 20_000, member: 'bob', desk: 'desk-x' });
    expect((await teamActivityPage(bob, { member: 'carol' }, 0, 100)).total).toBe(40);
  });

  it('lets members read the counts and never write them', async () => {
    await seeded();
    await expect(
      alice.query("INSERT INTO team.activity_counts VALUES ('2020-01-01', 'x', 'alice', '', 1)"),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(alice.query('UPDATE team.activity_counts SET entries = 0')).rejects.toMatchObject({
      code: '42501',
    });
  });
});
