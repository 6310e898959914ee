import { describe, expect } from 'vitest';
import type { Client } from 'pg';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';

// Migration 003 of the team store: a batch submitted for approval, its lines each used once by
// the item whose content hashes to it, tried with the members' own credentials in raw SQL.

const team = useTeamDatabase();
const db = () => team.current!;

let alice: Client; // drafter, trader
let bob: Client; // approver
let dave: Client; // drafter only
let erin: Client; // drafter and approver
let owner: Client;

/** One strategy's content as the desk writes it (canonical JSON, keys sorted). */
const line = (strategyId: string, weight: string) =>
  JSON.stringify({ body: { positions: [{ symbol: 'AAPL', weight }] }, strategyId });
const batch = (lines: string[]) => JSON.stringify({ acknowledgements: [], batchId: 'b-1', lines });
const submitBatch = (who: Client, content: string) =>
  who
    .query<{ id: string }>("SELECT team.submit_batch('b-1', 'Batch of 2', $1, 'desk-a') AS id", [
      content,
    ])
    .then((r) => r.rows[0]!.id);
const use = (who: Client, subject: string, content: string) =>
  who.query("SELECT team.use_approval($1, $2, 'desk-a') AS id", [subject, content]);
const refusedWith = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (e: { code?: string }) => e.code,
  );

describe('migration 003: batches approved line by line', () => {
  it('submits a batch as lines; the submitter cannot decide it; each line used once, by its own content', async () => {
    await db().addMember('alice', ['drafter', 'trader']);
    await db().addMember('bob', ['approver']);
    await db().addMember('dave', ['drafter']);
    await db().addMember('erin', ['drafter', 'approver']);
    erin = await db().as('erin');
    alice = await db().as('alice');
    bob = await db().as('bob');
    dave = await db().as('dave');
    owner = await db().owner();

    // Lines are strings each naming its strategy.
    expect(await refusedWith(submitBatch(alice, JSON.stringify({ lines: [] })))).toBe('22023');
    expect(await refusedWith(submitBatch(alice, JSON.stringify({ lines: [{ a: 1 }] })))).toBe(
      '22023',
    );
    expect(await refusedWith(submitBatch(alice, batch(['{"body":{}}'])))).toBe('22023');

    const id = await submitBatch(alice, batch([line('s-1', '5'), line('s-2', '7')]));
    const lines = await owner.query(
      'SELECT position, subject FROM team.submission_lines WHERE submission_id = $1 ORDER BY position',
      [id],
    );
    expect(lines.rows).toEqual([
      { position: 1, subject: 's-1' },
      { position: 2, subject: 's-2' },
    ]);
    // Not approved yet: nothing executes.
    expect(await refusedWith(use(alice, 's-1', line('s-1', '5')))).toBe('DK001');
    // The submitter never decides their own, approver or not; nor does a member without the role.
    const own = await submitBatch(erin, batch([line('s-9', '1')]));
    expect(await refusedWith(erin.query("SELECT team.decide($1, true, '', 'desk-e')", [own]))).toBe(
      'DK003',
    );
    expect(await refusedWith(alice.query("SELECT team.decide($1, true, '', 'desk-a')", [id]))).toBe(
      '42501',
    );
    expect(await refusedWith(dave.query("SELECT team.decide($1, true, '', 'desk-d')", [id]))).toBe(
      '42501',
    );
    // Nor at the table: a row decided by its submitter breaks the table's check.
    expect(
      await refusedWith(
        owner.query('UPDATE team.submissions SET decided_by = submitted_by WHERE id = $1', [id]),
      ),
    ).toBe('23514');
    await bob.query("SELECT team.decide($1, true, 'both fine', 'desk-b')", [id]);

    // A line's content changed: refused as outdated; a drafter without the trader role: refused.
    expect(await refusedWith(use(alice, 's-1', line('s-1', '6')))).toBe('DK002');
    expect(await refusedWith(use(dave, 's-1', line('s-1', '5')))).toBe('42501');
    // Another strategy's line does not stand for this one.
    expect(await refusedWith(use(alice, 's-2', line('s-1', '5')))).toBe('DK002');

    expect((await use(alice, 's-1', line('s-1', '5'))).rows[0].id).toBe(id);
    expect(await refusedWith(use(alice, 's-1', line('s-1', '5')))).toBe('DK002');
    const half = await owner.query('SELECT state FROM team.submissions WHERE id = $1', [id]);
    expect(half.rows[0].state).toBe('approved');
    expect((await use(alice, 's-2', line('s-2', '7'))).rows[0].id).toBe(id);
    const used = await owner.query(
      'SELECT s.state, s.used_by, count(l.used_at)::int AS used FROM team.submissions s JOIN team.submission_lines l ON l.submission_id = s.id WHERE s.id = $1 GROUP BY 1, 2',
      [id],
    );
    expect(used.rows[0]).toEqual({ state: 'used', used_by: 'alice', used: 2 });

    const log = await owner.query<{ member: string; kind: string; strategy_id: string | null }>(
      "SELECT member::text, kind, strategy_id FROM team.activity WHERE kind LIKE 'approval.%' ORDER BY seq",
    );
    expect(log.rows).toEqual([
      { member: 'alice', kind: 'approval.submitted', strategy_id: null },
      { member: 'erin', kind: 'approval.submitted', strategy_id: null },
      { member: 'bob', kind: 'approval.approved', strategy_id: null },
      { member: 'alice', kind: 'approval.used', strategy_id: 's-1' },
      { member: 'alice', kind: 'approval.used', strategy_id: 's-2' },
    ]);
    // Members read the lines and never write them.
    expect(await refusedWith(alice.query('UPDATE team.submission_lines SET used_at = NULL'))).toBe(
      '42501',
    );
  });

  it('uses an expired batch for nothing', async () => {
    const id = await submitBatch(alice, batch([line('s-3', '5')]));
    await bob.query("SELECT team.decide($1, true, '', 'desk-b')", [id]);
    // The owner moves the expiry into the past, as time would.
    await owner.query(
      "UPDATE team.submissions SET expires_at = clock_timestamp() - interval '1 second' WHERE id = $1",
      [id],
    );
    expect(await refusedWith(use(alice, 's-3', line('s-3', '5')))).toBe('DK002');
  });
});
