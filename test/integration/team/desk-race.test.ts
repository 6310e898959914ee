import { afterAll, beforeAll, describe, expect } from 'vitest';
import { itWithPostgres as it, MEMBER_PASSWORD, useTeamDatabase } from '../../support/team-cluster';
import { openRacingDesks, raceRound, type RacingDesks } from '../../support/team-race';

/**
 * No double across desks (docs/team.md): two desks, each with its own data folder and member,
 * on one team database and one sandbox, send the same 20 strategies at once, round after round.
 * The sandbox never creates more than one version of a strategy in a round, and every send not
 * made is refused in words: the team's claim held by the other desk, or the confirmation
 * outdated by what the other desk executed.
 */
const STRATEGIES = 20;
const ROUNDS = 4;
const team = useTeamDatabase();
let race: RacingDesks | undefined;

beforeAll(async () => {
  const db = team.current;
  if (!db) return;
  await db.addMember('alice', ['drafter', 'trader']);
  await db.addMember('carol', ['drafter', 'trader']);
  const owner = await db.owner();
  await owner.query("SELECT team.set_policy('none', interval '24 hours', 'owner')");
  race = await openRacingDesks(STRATEGIES, {
    port: db.cluster.port,
    database: db.database,
    members: ['alice', 'carol'],
    password: MEMBER_PASSWORD,
  });
}, 120_000);
afterAll(async () => {
  await race?.close();
});

describe('two desks of a team racing on the same strategies', () => {
  it(`${STRATEGIES} strategies for ${ROUNDS} rounds: never two versions of one in a round, every refusal in words`, async () => {
    const kinds = new Map<string, number>();
    let sent = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { created, refused, other } = await raceRound(race!, round, round % 2 === 1);
      expect(other, `round ${round}`).toEqual([]);
      const doubles = [...created].filter(([, n]) => n > 1);
      expect(doubles, `round ${round}`).toEqual([]);
      // Each strategy: one send made, or none, and the rest refused; 2 tries per strategy.
      const made = [...created.values()].reduce((a, b) => a + b, 0);
      expect(made + refused.length, `round ${round}`).toBe(2 * STRATEGIES);
      for (const r of refused) {
        kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
        expect(r, `round ${round}`).toSatisfy(
          (x: { kind: string; message: string }) =>
            (x.kind === 'team-refused' &&
              /execution in flight from (alice|carol) on desk /.test(x.message)) ||
            (x.kind === 'confirmation-outdated' &&
              /another window may have executed/.test(x.message)),
        );
      }
      sent += made;
    }
    // The claim is what refused at least once: the desks did race.
    expect(kinds.get('team-refused') ?? 0).toBeGreaterThan(0);
    console.log(`race: ${sent} sent, refused by kind`, Object.fromEntries(kinds));
  }, 240_000);
});
