import { Client } from 'pg';
import { DeskError } from '../../shared/views';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from './desk-harness';
import { manyStrategiesSandbox, profileWithCopies } from './many-strategies';

/**
 * Two desks of one team racing (docs/team.md, "No double across desks"): two desk harnesses,
 * each with its own data folder, on one team database and one sandbox holding `strategies`
 * copies of Core Equity, each desk's profile joined as its own member. A round confirms a draft
 * of every strategy on both desks first (the same facts read by both), then sends all of them at
 * once; the sandbox's own count says how many versions each strategy got in the round.
 */
export interface RacingDesks {
  desks: [DeskHarness, DeskHarness];
  profiles: [string, string];
  strategyIds: string[];
  baseUrl: string;
  /** The team's claims held now, as the first member reads them. */
  claimsHeld(): Promise<number>;
  close(): Promise<void>;
}

export interface TeamStoreAt {
  port: number;
  database: string;
  /** The two members, one per desk (each with the trader role). */
  members: [string, string];
  password: string;
}

/**
 * `stepMs`: each step of a rebalance at the sandbox (three steps): while one runs, the strategy's
 * holdings still look as before it.
 */
export async function openRacingDesks(
  strategies: number,
  team: TeamStoreAt,
  stepMs = 50,
): Promise<RacingDesks> {
  const sandbox = await manyStrategiesSandbox(strategies, stepMs);
  const desks: DeskHarness[] = [];
  const profiles: string[] = [];
  const reader = new Client({
    host: '127.0.0.1',
    port: team.port,
    database: team.database,
    user: team.members[0],
    password: team.password,
  });
  reader.on('error', () => undefined);
  const close = async () => {
    await Promise.all(desks.map((h) => h.close()));
    await reader.end().catch(() => undefined);
    await sandbox.close();
  };
  try {
    await reader.connect();
    for (const member of team.members) {
      const h = await openDeskHarness({ stepMs: 0 });
      desks.push(h);
      const profileId = await profileWithCopies(h.desk, sandbox);
      profiles.push(profileId);
      await h.desk.team.join({
        profileId,
        host: '127.0.0.1',
        port: team.port,
        database: team.database,
        member,
        password: team.password,
        caFile: null,
      });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    desks: desks as [DeskHarness, DeskHarness],
    profiles: profiles as [string, string],
    strategyIds: sandbox.ids,
    baseUrl: sandbox.baseUrl,
    claimsHeld: async () =>
      (await reader.query<{ n: number }>('SELECT count(*)::int AS n FROM team.claims')).rows[0]!.n,
    close,
  };
}

export interface RaceRound {
  /** Versions the sandbox created in the round, per strategy. */
  created: Map<string, number>;
  /** Each send the desks refused, with the desk's words. */
  refused: { kind: string; message: string }[];
  /** Sends that failed otherwise than by a refusal in words (none expected). */
  other: unknown[];
}

async function acceptedCounts(baseUrl: string): Promise<Record<string, number>> {
  const counters = (await sandboxAdmin(baseUrl, 'GET', '/sandbox/counters')) as {
    data: { executions_accepted: Record<string, number> };
  };
  return counters.data.executions_accepted;
}

/**
 * One round: every strategy's draft confirmed on both desks, then all sent at once, or
 * `staggered`: each strategy's second send once its first returned. Waits until each version
 * sent ended and every claim of the round was given back to the team store.
 */
export async function raceRound(
  race: RacingDesks,
  round: number,
  staggered: boolean,
): Promise<RaceRound> {
  const confirmed = await Promise.all(
    race.desks.flatMap((h, d) =>
      race.strategyIds.map(async (strategyId) => {
        const draft = await h.desk.drafts.create({
          profileId: race.profiles[d]!,
          strategyId,
          name: `Race ${round} desk ${d + 1}`,
          start: 'target',
        });
        // Each desk its own weights, each round new ones: two different intents for one strategy.
        await h.desk.drafts.saveRows({
          draftId: draft.id,
          rows: draft.rows.map((r, i) => ({
            ...r,
            weight: i === 0 ? String(3 + (round % 3) + d * 0.5) : r.weight,
          })),
        });
        const { planKey } = await h.desk.versions.prepareExecute({ draftId: draft.id });
        return { h, draftId: draft.id, planKey };
      }),
    ),
  );
  const before = await acceptedCounts(race.baseUrl);
  const send = ({ h, draftId, planKey }: (typeof confirmed)[number]) =>
    h.desk.versions
      .execute({ draftId, confirmation: { planKey, acknowledgedStale: true, againAfter: null } })
      .then((outcome) => ({ h, versionId: outcome.version.id }));
  const n = race.strategyIds.length;
  const sent = staggered
    ? // One desk first (each round the other), the second once the first's send returned: its
      // rebalance runs at the service while the second desk reads and sends.
      (
        await Promise.all(
          race.strategyIds.map(async (_, i) => {
            const [first, second] = round % 2 === 0 ? [i, n + i] : [n + i, i];
            const firstSent = await Promise.allSettled([send(confirmed[first]!)]);
            return [...firstSent, ...(await Promise.allSettled([send(confirmed[second]!)]))];
          }),
        )
      ).flat()
    : await Promise.allSettled(confirmed.map(send));
  const after = await acceptedCounts(race.baseUrl);
  const created = new Map(
    race.strategyIds.map((id) => [id, (after[id] ?? 0) - (before[id] ?? 0)] as const),
  );
  const refused: RaceRound['refused'] = [];
  const other: unknown[] = [];
  const ended: Promise<unknown>[] = [];
  for (const outcome of sent) {
    if (outcome.status === 'fulfilled') {
      const { h, versionId } = outcome.value;
      ended.push(
        h.waitFor(
          (e) => e.type === 'version-status-changed' && e.versionId === versionId && e.ended,
          30_000,
        ),
      );
    } else if (outcome.reason instanceof DeskError)
      refused.push({ kind: outcome.reason.kind, message: outcome.reason.message });
    else other.push(outcome.reason);
  }
  await Promise.all(ended);
  // The claims are given back after each execution settled; the next round starts without any.
  for (let wait = 0; (await race.claimsHeld()) > 0; wait++) {
    if (wait === 500) throw new Error(`Claims still held 10 s after round ${round} settled`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { created, refused, other };
}
