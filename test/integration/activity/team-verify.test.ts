import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import type { Client } from 'pg';
import { entryHash } from '../../../electron/core/store/repositories/activity-canonical';
import { itWithPostgres as it, MEMBER_PASSWORD, useTeamDatabase } from '../../support/team-cluster';

// `npm run verify-activity -- --team URL` recomputes the team's chain on the desk's side and
// names where it breaks; the cluster's superuser tampers with it, as no member can.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const team = useTeamDatabase();
const db = () => team.current!;

/** Runs the script as a member would (tsx, no app), connected with the member's own login. */
function verifyTeam(login: string) {
  const url = db().cluster.url(db().database, login, MEMBER_PASSWORD);
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      'scripts/verify-activity.ts',
      '--team',
      url,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { status: run.status, out: `${run.stdout}${run.stderr}`.trim() };
}

let alice: Client;
let bob: Client;
let owner: Client;

/** The superuser writes past the log's triggers (a member cannot even try: no UPDATE grant). */
async function tamper(sql: string, params: unknown[] = []): Promise<void> {
  await owner.query('BEGIN');
  await owner.query('SET LOCAL session_replication_role = replica');
  await owner.query(sql, params);
  await owner.query('COMMIT');
}

describe('npm run verify-activity -- --team', () => {
  it('says OK for a whole chain written by members on their desks', async () => {
    await db().addMember('alice', ['drafter', 'trader']);
    await db().addMember('bob', ['approver']);
    alice = await db().as('alice');
    bob = await db().as('bob');
    owner = await db().owner();
    const { rows } = await alice.query<{ id: string }>(
      "SELECT team.submit('draft', 's-1', 'Core Equity', '{\"weight\":\"40\"}', 'desk-a') AS id",
    );
    await bob.query("SELECT team.decide($1, true, 'fine', 'desk-b')", [rows[0]!.id]);
    await alice.query("SELECT team.use_approval('s-1', '{\"weight\":\"40\"}', 'desk-a')");
    // Past nine entries: the chain is read in the order of seq as a number (10 after 9).
    await alice.query(
      `INSERT INTO team.activity (desk, kind, strategy_id, payload)
       SELECT 'desk-a', 'note', 's-1', '{"text":"ünïcode \\"quoted\\"\\n","n":' || i || '}'
         FROM generate_series(1, 12) AS i`,
    );
    expect(verifyTeam('alice')).toEqual({
      status: 0,
      out: "OK: the team's log holds 15 entries, each linked to the one before it and matching its hash.",
    });
  });

  it('names an entry whose content was changed, with the hash expected and found', async () => {
    const before = await owner.query<{ hash: string; at: string }>(
      'SELECT hash, at FROM team.activity WHERE seq = 2',
    );
    await tamper(
      `UPDATE team.activity SET payload = '{"note":"rubber stamp","submission":"x"}' WHERE seq = 2`,
    );
    const { rows } = await owner.query<{ previous_hash: string; canonical: string }>(
      'SELECT previous_hash, team.entry_canonical(a) AS canonical FROM team.activity a WHERE seq = 2',
    );
    const expected = entryHash(rows[0]!.previous_hash, rows[0]!.canonical);
    const at = before.rows[0]!.at;
    expect(verifyTeam('bob')).toEqual({
      status: 1,
      out:
        `The team's log does not verify. Entry 2 of the team's log (${at.slice(0, 10)} ${at.slice(11, 16)} UTC, bob on desk desk-b) ` +
        `does not match its hash: its content was changed after it was written (expected hash ${expected}, found ${before.rows[0]!.hash}).`,
    });
  });

  it('names the entry after one replaced whole (its own hash recomputed)', async () => {
    const { rows } = await owner.query<{ hash: string }>(
      `SELECT encode(sha256(convert_to(previous_hash || E'\\n' || team.entry_canonical(a), 'UTF8')), 'hex') AS hash
         FROM team.activity a WHERE seq = 2`,
    );
    const replaced = rows[0]!.hash;
    await tamper(`UPDATE team.activity SET hash = $1 WHERE seq = 2`, [replaced]);
    const third = await owner.query<{ previous_hash: string }>(
      'SELECT previous_hash FROM team.activity WHERE seq = 3',
    );
    const result = verifyTeam('alice');
    expect(result.status).toBe(1);
    expect(result.out).toContain(`Entry 3 of the team's log (`);
    expect(result.out).toContain(
      `does not link to the entry before it: an entry was replaced, removed or inserted (expected previous hash ${replaced}, found ${third.rows[0]!.previous_hash}).`,
    );
  });

  it('names an entry removed from the middle', async () => {
    await tamper('DELETE FROM team.activity WHERE seq = 1');
    expect(verifyTeam('alice')).toEqual({
      status: 1,
      out: "The team's log does not verify. Entry 1 of the team's log is missing: it was removed (expected entry 1, found entry 2 next).",
    });
  });

  it('says plainly when the store cannot be reached', async () => {
    const run = verifyTeam('nobody');
    expect(run.status).toBe(1);
    expect(run.out).toMatch(/^Cannot connect to the team store: .*nobody/);
  });
});
