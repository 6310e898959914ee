import { describe, expect } from 'vitest';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';

// Migration 007 of the team store: a draft's submission, decision and use name its strategy in
// the team's log; a batch's submission names none (its lines' uses name each). Raw SQL as the
// members.

const team = useTeamDatabase();
const db = () => team.current!;

describe('migration 007: approvals name the strategy', () => {
  it('writes the strategy of a draft’s submission, decision and use; none for a batch', async () => {
    await db().addMember('alice', ['drafter', 'trader']);
    await db().addMember('bob', ['approver']);
    const alice = await db().as('alice');
    const bob = await db().as('bob');
    const owner = await db().owner();
    const content = JSON.stringify({ positions: [{ symbol: 'AAPL', weight: '5' }] });
    const { rows } = await alice.query<{ id: string }>(
      "SELECT team.submit('draft', 's-1', 'Core Equity — Tilt', $1, 'desk-a') AS id",
      [content],
    );
    await bob.query("SELECT team.decide($1, true, 'fine', 'desk-b')", [rows[0]!.id]);
    await alice.query("SELECT team.use_approval('s-1', $1, 'desk-a')", [content]);
    const line = JSON.stringify({ body: { positions: [] }, strategyId: 's-2' });
    const { rows: batch } = await alice.query<{ id: string }>(
      "SELECT team.submit_batch('b-1', 'A batch', $1, 'desk-a') AS id",
      [JSON.stringify({ acknowledgements: [], batchId: 'b-1', lines: [line] })],
    );
    await bob.query("SELECT team.decide($1, false, 'not now', 'desk-b')", [batch[0]!.id]);
    const { rows: log } = await owner.query<{ kind: string; strategy_id: string | null }>(
      "SELECT kind, strategy_id FROM team.activity WHERE kind LIKE 'approval.%' ORDER BY seq",
    );
    expect(log).toEqual([
      { kind: 'approval.submitted', strategy_id: 's-1' },
      { kind: 'approval.approved', strategy_id: 's-1' },
      { kind: 'approval.used', strategy_id: 's-1' },
      { kind: 'approval.submitted', strategy_id: null },
      { kind: 'approval.rejected', strategy_id: null },
    ]);
  });
});
