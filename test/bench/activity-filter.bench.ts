/**
 * activity_filter_1m_vs_100k_ratio (docs/activity.md, docs/team.md): filtering the activity log
 * by day, kind or strategy (and, for the team's log, member) at 1,000,000 entries over the same at
 * 100,000: the desk's log through the desk's own `activity.list` (SQLite in a temp folder), the
 * team's through `teamActivityPage` on a throwaway PostgreSQL as a member. Each filter is timed
 * as the view asks: its total and its newest 50 entries; median of 15 after warm-ups, the two
 * sizes open together and timed in alternating order. The figure is the worst ratio of any
 * filter of either log. Goal: at most 2.
 *
 * activity_verify_call_wait_1m_ms: with 1,000,000 entries, "Check again" walks the desk's log
 * while a call is made every 5 ms; the longest any call waited for its answer, from the moment
 * it was due. Goal: at most 100.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDesk, type Desk } from '../../electron/core/desk';
import { MemorySecretStore } from '../../electron/core/secrets';
import { teamActivityPage } from '../../electron/core/activity/team-log';
import { teamEntryCanonical, type TeamChainRow } from '../../electron/core/activity/team-verify';
import { entryHash } from '../../electron/core/store/repositories/activity-canonical';
import { migrateTeamStore } from '../../electron/core/team/migrate';
import { addMember } from '../../electron/core/team/members';
import { CHAIN_START } from '../../shared/activity/kinds';
import { seedActivity } from '../support/activity-seed';
import { median } from '../support/median';
import { findPostgres, startPostgresCluster } from '../support/postgres-cluster';

const SMALL = 100_000;
const LARGE = 1_000_000;
const RUNS = 15;
const WARMUPS = 3;
const CHUNK = 50_000;
const START = Date.parse('2026-01-05T09:00:00.000Z');
/** A day well inside both logs (entries are a minute apart: 1,440 a day). */
const DAY = '2026-02-10';

/**
 * The same filter on the small log and on the large one, timed in alternating order (which goes
 * first changes each run): a busy moment of the machine weighs on both alike. The medians.
 */
async function timedPair(
  small: () => Promise<unknown>,
  large: () => Promise<unknown>,
): Promise<[number, number]> {
  for (let i = 0; i < WARMUPS; i++) {
    await small();
    await large();
  }
  const times: [number[], number[]] = [[], []];
  const time = async (run: () => Promise<unknown>, into: number[]) => {
    const started = performance.now();
    await run();
    into.push(performance.now() - started);
  };
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) await time(small, times[0]);
    await time(large, times[1]);
    if (i % 2 === 1) await time(small, times[0]);
  }
  return [median(times[0]), median(times[1])];
}

/** A desk whose one profile has `count` entries, a minute apart, over two strategies. */
async function deskWith(count: number) {
  const dataDir = await mkdtemp(join(tmpdir(), 'strategy-desk-filter-bench-'));
  const desk = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
  const profile = await desk.profiles.create({
    name: 'Bench',
    baseUrl: 'http://127.0.0.1:9',
    clientId: 'bench',
    secret: 'bench-secret',
  });
  const strategyIds = [randomUUID(), randomUUID()];
  for (let done = 0; done < count; done += CHUNK)
    seedActivity(desk.store, {
      profileId: profile.id,
      profileName: 'Bench',
      count: Math.min(CHUNK, count - done),
      strategyIds,
      startAt: new Date(START + done * 60_000).toISOString(),
    });
  return {
    desk,
    profileId: profile.id,
    strategyId: strategyIds[0]!,
    async close() {
      await desk.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type DeskLog = Awaited<ReturnType<typeof deskWith>>;

const deskFilters = (log: DeskLog) => ({
  day: { profileId: log.profileId, from: DAY, to: DAY },
  kind: { profileId: log.profileId, kinds: ['version-ended' as const] },
  strategy: { profileId: log.profileId, strategyId: log.strategyId },
});

/** Each filter's time on the small log and the large one: [small, large]. */
async function deskTimes(
  small: DeskLog,
  large: DeskLog,
): Promise<Record<string, [number, number]>> {
  const times: Record<string, [number, number]> = {};
  const onLarge = deskFilters(large);
  for (const [name, filter] of Object.entries(deskFilters(small)))
    times[name] = await timedPair(
      () => small.desk.activity.list({ ...filter, offset: 0, limit: 50 }),
      () =>
        large.desk.activity.list({
          ...onLarge[name as keyof typeof onLarge],
          offset: 0,
          limit: 50,
        }),
    );
  return times;
}

/** The longest wait of a call made every 5 ms while "Check again" walks the log. */
async function longestWaitDuringCheck(desk: Desk, profileId: string): Promise<number> {
  let walking = true;
  const check = desk.activity.verify({}).finally(() => (walking = false));
  let longest = 0;
  let calls = 0;
  while (walking) {
    const due = performance.now() + 5;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await desk.activity.list({ profileId, offset: 0, limit: 50 });
    longest = Math.max(longest, performance.now() - due);
    calls += 1;
  }
  const result = await check;
  if (!result.ok) throw new Error(`The seeded log does not verify: ${result.brokenAt?.reason}`);
  console.log(
    `  check of ${result.entries.toLocaleString('en-US')} entries: ${calls} calls answered meanwhile`,
  );
  return longest;
}

const TEAM_KINDS = [
  'approval.submitted',
  'approval.approved',
  'claim.taken',
  'claim.released',
  'model.saved',
];
const MEMBERS = ['alice', 'bob', 'carol', 'dave'];

/**
 * A team database holding `count` chained entries a minute apart, written as the cluster's
 * superuser past the triggers (a million inserts one by one would take the bench's whole
 * time), hashed here as the trigger hashes them; the counts and totals then as migration 002
 * builds them.
 */
async function teamWith(admin: Client, url: (db: string, who?: string) => string, count: number) {
  const database = `team_${count}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const owner = new Client({ connectionString: url(database) });
  await owner.connect();
  await migrateTeamStore(owner);
  for (const login of MEMBERS)
    await addMember(owner, {
      login: `${login}_${count}`,
      displayName: login,
      roles: ['drafter'],
      password: 'bench-member-password',
    }).catch(() => undefined);
  await owner.query('SET session_replication_role = replica');
  let previous = CHAIN_START;
  const batch = 2_000;
  for (let from = 1; from <= count; from += batch) {
    const values: unknown[] = [];
    const rows: string[] = [];
    for (let seq = from; seq < from + batch && seq <= count; seq++) {
      const row: TeamChainRow = {
        seq: String(seq),
        at: new Date(START + seq * 60_000).toISOString().replace('Z', '000Z'),
        member: MEMBERS[seq % MEMBERS.length]!,
        desk: `desk-${seq % 3}`,
        kind: TEAM_KINDS[seq % TEAM_KINDS.length]!,
        strategy_id: seq % 4 === 0 ? null : `s-${seq % 2}`,
        version_id: null,
        payload: `{"n":${seq}}`,
        previous_hash: previous,
        hash: '',
      };
      row.hash = entryHash(previous, teamEntryCanonical(row));
      previous = row.hash;
      const at = values.length;
      values.push(
        row.seq,
        row.at,
        row.member,
        row.desk,
        row.kind,
        row.strategy_id,
        row.payload,
        row.previous_hash,
        row.hash,
      );
      rows.push(`(${Array.from({ length: 9 }, (_, i) => `$${at + i + 1}`).join(',')})`);
    }
    await owner.query(
      `INSERT INTO team.activity (seq, at, member, desk, kind, strategy_id, payload, previous_hash, hash) VALUES ${rows.join(',')}`,
      values,
    );
  }
  await owner.query('SET session_replication_role = DEFAULT');
  await owner.query(`INSERT INTO team.activity_counts (day, kind, member, strategy_id, entries)
    SELECT substr(at, 1, 10), kind, member, coalesce(strategy_id, ''), count(*) FROM team.activity GROUP BY 1, 2, 3, 4`);
  await owner.query(`INSERT INTO team.activity_totals (kind, member, strategy_id, entries)
    SELECT kind, member, strategy_id, sum(entries) FROM team.activity_counts GROUP BY 1, 2, 3`);
  await owner.query('VACUUM ANALYZE team.activity');
  await owner.query('ANALYZE team.activity_counts');
  await owner.end();
  const member = new Client({ connectionString: url(database, `alice_${count}`) });
  await member.connect();
  return member;
}

async function teamTimes(small: Client, large: Client): Promise<Record<string, [number, number]>> {
  const filters = {
    day: { from: DAY, to: DAY },
    kind: { kinds: ['claim.taken'] },
    member: { member: 'bob' },
    strategy: { strategyId: 's-1' },
  };
  const times: Record<string, [number, number]> = {};
  for (const [name, filter] of Object.entries(filters))
    times[name] = await timedPair(
      () => teamActivityPage(small, filter, 0, 50),
      () => teamActivityPage(large, filter, 0, 50),
    );
  return times;
}

const ratios = (times: Record<string, [number, number]>, log: string) =>
  Object.entries(times).map(([name, [small, large]]) => {
    console.log(
      `  ${log} by ${name}: ${small.toFixed(2)} ms at 100k, ${large.toFixed(2)} ms at 1M`,
    );
    return large / small;
  });

export default async function activityFilterBench(): Promise<Record<string, number>> {
  const all: number[] = [];
  const small = await deskWith(SMALL);
  let wait: number;
  try {
    const large = await deskWith(LARGE);
    try {
      all.push(...ratios(await deskTimes(small, large), "desk's log"));
      wait = await longestWaitDuringCheck(large.desk, large.profileId);
    } finally {
      await large.close();
    }
  } finally {
    await small.close();
  }
  const postgres = findPostgres();
  if (postgres.available) {
    const cluster = await startPostgresCluster(postgres);
    const admin = new Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    try {
      const url = (db: string, who?: string) =>
        who ? cluster.url(db, who, 'bench-member-password') : cluster.url(db);
      const smallTeam = await teamWith(admin, url, SMALL);
      const largeTeam = await teamWith(admin, url, LARGE);
      all.push(...ratios(await teamTimes(smallTeam, largeTeam), "team's log"));
      await smallTeam.end();
      await largeTeam.end();
    } finally {
      await admin.end();
      await cluster.drop();
    }
  } else console.log(`  the team's log omitted: ${postgres.why}`);
  return {
    activity_filter_1m_vs_100k_ratio: Math.round(Math.max(...all) * 100) / 100,
    activity_verify_call_wait_1m_ms: Math.round(wait),
  };
}
