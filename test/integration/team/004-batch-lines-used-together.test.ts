import { describe, expect } from 'vitest';
import type { Client } from 'pg';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';

// Migration 004 of the team store: the lines of one approved batch used side by side (a batch
// arms several items at once, each on its own connection), tried in raw SQL as the members.

const team = useTeamDatabase();
const db = () => team.current!;

const LINES = 12;
const line = (i: number) =>
  JSON.stringify({ body: { positions: [{ symbol: 'AAPL', weight: '5' }] }, strategyId: `s-${i}` });

describe('migration 004: a batch’s lines used together', () => {
  it('marks the submission used once every line is, however many are used at the same time', async () => {
    await db().addMember('alice', ['drafter', 'trader']);
    await db().addMember('bob', ['approver']);
    const alice = await db().as('alice');
    const bob = await db().as('bob');
    const owner = await db().owner();
    // One connection per item being armed, as a batch's items each take their own.
    const traders: Client[] = [];
    for (let i = 0; i < LINES; i++) traders.push(await db().as('alice'));

    for (let round = 0; round < 3; round++) {
      const lines = Array.from({ length: LINES }, (_, i) => line(round * LINES + i));
      const { rows } = await alice.query<{ id: string }>(
        "SELECT team.submit_batch('b', 'Batch', $1, 'desk-a') AS id",
        [JSON.stringify({ acknowledgements: [], batchId: `b-${round}`, lines })],
      );
      const id = rows[0]!.id;
      await bob.query("SELECT team.decide($1, true, '', 'desk-b')", [id]);
      await Promise.all(
        lines.map((content, i) =>
          traders[i]!.query("SELECT team.use_approval($1, $2, 'desk-a')", [
            `s-${round * LINES + i}`,
            content,
          ]),
        ),
      );
      const { rows: state } = await owner.query(
        `SELECT s.state, count(l.used_at)::int AS used FROM team.submissions s
           JOIN team.submission_lines l ON l.submission_id = s.id WHERE s.id = $1 GROUP BY 1`,
        [id],
      );
      expect(state[0], `round ${round}`).toEqual({ state: 'used', used: LINES });
    }
  });
});
