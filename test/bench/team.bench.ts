/**
 * The team's figures, on a throwaway PostgreSQL cluster and the built-in sandbox over HTTP:
 * - team_approval_visible_vs_notify_ratio: a submission made at alice's login until it reaches
 *   a desk of the team as `team-changed`, against a bare LISTEN/NOTIFY round trip (median each);
 * - team_execute_vs_single_desk_ratio: executing a confirmed draft on a profile in a team (the
 *   team's claim and the approval used, its submission approved beforehand, untimed), against the
 *   same on a desk alike without a team (its own built-in sandbox alike), rounds alternating,
 *   both services answering after SERVICE_LATENCY_MS (`…_no_latency`: after none, no goal);
 * - team_self_approvals_accepted: a member's decisions of their own submissions the team store
 *   accepted, from the desk and in raw SQL (must be 0);
 * - team_race_doubles: two desks of the team sending the same 20 strategies at once for 20
 *   rounds (support/team-race.ts), the rounds in which the sandbox created more than one version
 *   of a strategy, counted per strategy (must be 0); beside it what was sent and refused.
 * Without PostgreSQL the figures say so instead.
 */
import { Client } from 'pg';
import type { DeskEvent } from '../../shared/contract';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { migrateTeamStore } from '../../electron/core/team/migrate';
import { addMember } from '../../electron/core/team/members';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../support/desk-harness';
import { median } from '../support/median';
import { SERVICE_LATENCY_MS } from '../support/sandbox-process';
import { openRacingDesks, raceRound } from '../support/team-race';
import { findPostgres, startPostgresCluster } from '../support/postgres-cluster';
import { nextEvent } from './known-targets';

const PASSWORD = 'member-password-for-bench';
const CORE = DEMO_STRATEGY_IDS.coreEquity;
/** Rounds of the submission against the bare round trip (each a few milliseconds). */
const VISIBLE_ROUNDS = 60;
/** Rounds of an execute in the team against one on a desk without (each some milliseconds). */
const EXECUTE_ROUNDS = 16;

const RACE_STRATEGIES = 20;
const RACE_ROUNDS = 20;

/** Two desks racing on the same strategies, no approval asked (the claim alone decides). */
async function race(owner: Client, port: number): Promise<Record<string, number>> {
  await owner.query("SELECT team.set_policy('none', interval '24 hours', 'owner')");
  const desks = await openRacingDesks(RACE_STRATEGIES, {
    port,
    database: 'team',
    members: ['alice', 'carol'],
    password: PASSWORD,
  });
  let doubles = 0;
  let sent = 0;
  let inWords = 0;
  let otherwise = 0;
  try {
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const { created, refused, other } = await raceRound(desks, round, round % 2 === 1);
      for (const n of created.values()) {
        sent += n;
        if (n > 1) doubles += n - 1;
      }
      inWords += refused.length;
      otherwise += other.length;
    }
  } finally {
    await desks.close();
  }
  return {
    team_race_doubles: doubles,
    team_race_sent: sent,
    team_race_refused_in_words: inWords,
    team_race_failed_otherwise: otherwise,
  };
}

export default async function teamBench(): Promise<Record<string, number | string>> {
  const found = findPostgres();
  if (!found.available) return { team_bench: `skipped: ${found.name} ${found.why ?? ''}` };
  const cluster = await startPostgresCluster(found);
  const clients: Client[] = [];
  const connect = async (url: string) => {
    const c = new Client({ connectionString: url });
    c.on('error', () => undefined);
    await c.connect();
    clients.push(c);
    return c;
  };
  let h: DeskHarness | undefined;
  let alone: DeskHarness | undefined;
  try {
    const admin = await connect(cluster.url('postgres'));
    await admin.query('CREATE DATABASE team');
    const owner = await connect(cluster.url('team'));
    await migrateTeamStore(owner);
    for (const [login, roles] of [
      ['alice', ['drafter', 'trader']],
      ['bob', ['approver']],
      ['erin', ['drafter', 'approver']],
      ['carol', ['drafter', 'trader']],
    ] as const)
      await addMember(owner, { login, displayName: login, roles: [...roles], password: PASSWORD });
    const alice = await connect(cluster.url('team', 'alice', PASSWORD));
    const bob = await connect(cluster.url('team', 'bob', PASSWORD));
    const erin = await connect(cluster.url('team', 'erin', PASSWORD));

    // Two desks alike on sandboxes alike: one in the team, one without.
    h = await openDeskHarness({ stepMs: 0 });
    alone = await openDeskHarness({ stepMs: 0 });
    const teamed = (await h.desk.profiles.useSandbox({})).id;
    const single = (await alone.desk.profiles.useSandbox({})).id;
    await h.desk.team.join({
      profileId: teamed,
      host: '127.0.0.1',
      port: cluster.port,
      database: 'team',
      member: 'alice',
      password: PASSWORD,
      caFile: null,
    });
    let round = 0;
    // Executing a confirmed draft; in the team, its submission approved first (untimed).
    const executeOnce = async (on: DeskHarness, profileId: string): Promise<number> => {
      const inTeam = on === h;
      round += 1;
      const draft = await on.desk.drafts.create({
        profileId,
        strategyId: CORE,
        name: `Bench ${round}`,
        start: 'target',
      });
      await on.desk.drafts.saveRows({
        draftId: draft.id,
        rows: draft.rows.map((r, i) => ({
          ...r,
          weight: i === 0 ? String(3 + (round % 2)) : r.weight,
        })),
      });
      const preview = await on.desk.versions.prepareExecute({ draftId: draft.id });
      if (inTeam) {
        const submission = await on.desk.team.submit({
          draftId: draft.id,
          planKey: preview.planKey,
        });
        await bob.query("SELECT team.decide($1, true, '', 'bench')", [submission.id]);
      }
      const started = performance.now();
      const outcome = await on.desk.versions.execute({
        draftId: draft.id,
        confirmation: { planKey: preview.planKey, acknowledgedStale: true, againAfter: null },
      });
      const took = performance.now() - started;
      await on.waitFor(
        (e) => e.type === 'version-status-changed' && e.versionId === outcome.version.id && e.ended,
        20_000,
      );
      // The claim is released once settled: the next round must not meet it.
      for (let wait = 0; inTeam && wait < 100; wait++) {
        const { rows } = await owner.query('SELECT 1 FROM team.claims');
        if (rows.length === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      return took;
    };
    // One warm-up round each, then rounds in alternating order: a busy moment of the machine
    // weighs on both sides alike. Both services answer after the same latency (as in the other
    // benches: a service is on another machine), then after none, which shows the team's own
    // cost against the barest execute there is (no goal).
    const executeRounds = async (latencyMs: number) => {
      for (const on of [h!, alone!])
        await sandboxAdmin(on.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', {
          latency_ms: latencyMs,
        });
      await executeOnce(alone!, single);
      await executeOnce(h!, teamed);
      const times = { alone: [] as number[], team: [] as number[] };
      for (let i = 0; i < EXECUTE_ROUNDS; i++) {
        if (i % 2 === 0) times.alone.push(await executeOnce(alone!, single));
        times.team.push(await executeOnce(h!, teamed));
        if (i % 2 === 1) times.alone.push(await executeOnce(alone!, single));
      }
      return { team: median(times.team), alone: median(times.alone) };
    };
    const real = await executeRounds(SERVICE_LATENCY_MS);
    const bare0 = await executeRounds(0);

    const waitEvent = (match: (e: DeskEvent) => boolean) => h!.waitFor(match, 20_000);
    // The listening connection is up before the first round.
    await waitEvent((e) => e.type === 'team-changed' && e.topic === 'connection' && e.connected);

    // A bare LISTEN/NOTIFY round trip, and a submission until the desk hears of it, one after
    // the other in each round: a busy moment of the machine weighs on both sides alike. Each
    // side's moment is taken where it is heard (the client's notification, the desk's
    // announcement), by a listener registered before the query: no list is searched for it.
    const listener = await connect(cluster.url('team', 'bob', PASSWORD));
    await listener.query('LISTEN bench_round_trip');
    const bare: number[] = [];
    const visible: number[] = [];
    const body = (i: number) => JSON.stringify({ round: i });
    for (let i = 0; i < VISIBLE_ROUNDS; i++) {
      const heard = new Promise<number>((resolve) =>
        listener.once('notification', () => resolve(performance.now())),
      );
      let started = performance.now();
      await alice.query(`NOTIFY bench_round_trip, '${i}'`);
      bare.push((await heard) - started);

      // The round's one submission is the next the desk hears of.
      const deskHeard = nextEvent(
        h.desk,
        (e) => e.type === 'team-changed' && e.topic === 'submission',
      ).then((event) => ({ event, at: performance.now() }));
      started = performance.now();
      const { rows } = await alice.query<{ id: string }>(
        "SELECT team.submit('draft', $1, 'Bench', $2, 'bench') AS id",
        [`bench-${i}`, body(i)],
      );
      const { event, at } = await deskHeard;
      if (event.type !== 'team-changed' || event.key !== rows[0]!.id)
        throw new Error(`The desk heard of another submission than ${rows[0]!.id}.`);
      visible.push(at - started);
    }

    // Self-approvals, from the desk (alice cannot approve at all) and in raw SQL (erin can).
    let selfAccepted = 0;
    for (let i = 0; i < 5; i++) {
      const { rows } = await erin.query<{ id: string }>(
        "SELECT team.submit('draft', $1, 'Own', $2, 'bench') AS id",
        [`own-${i}`, body(i)],
      );
      await erin.query("SELECT team.decide($1, true, '', 'bench')", [rows[0]!.id]).then(
        () => (selfAccepted += 1),
        () => undefined,
      );
      await h.desk.team
        .decide({ profileId: teamed, submissionId: rows[0]!.id, approve: true, note: '' })
        .then(
          () => undefined,
          () => undefined,
        );
      const own = await alice.query<{ id: string }>(
        "SELECT team.submit('draft', $1, 'Own', $2, 'bench') AS id",
        [`alice-own-${i}`, body(i)],
      );
      await h.desk.team
        .decide({ profileId: teamed, submissionId: own.rows[0]!.id, approve: true, note: '' })
        .then(
          () => (selfAccepted += 1),
          () => undefined,
        );
    }
    const { rows: decidedOwn } = await owner.query(
      'SELECT count(*)::int AS n FROM team.submissions WHERE decided_by = submitted_by',
    );

    const raced = await race(owner, cluster.port);

    return {
      ...raced,
      team_approval_visible_ms: Number(median(visible).toFixed(2)),
      team_notify_round_trip_ms: Number(median(bare).toFixed(2)),
      team_approval_visible_vs_notify_ratio: Number((median(visible) / median(bare)).toFixed(2)),
      team_execute_ms: Number(real.team.toFixed(1)),
      single_desk_execute_ms: Number(real.alone.toFixed(1)),
      team_execute_vs_single_desk_ratio: Number((real.team / real.alone).toFixed(2)),
      team_execute_vs_single_desk_no_latency_ratio: Number((bare0.team / bare0.alone).toFixed(2)),
      team_self_approvals_accepted: selfAccepted + Number(decidedOwn[0].n),
    };
  } finally {
    await h?.close();
    await alone?.close();
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await cluster.drop();
  }
}
