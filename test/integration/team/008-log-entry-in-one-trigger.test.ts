import { describe, expect } from 'vitest';
import { Client } from 'pg';
import { entryHash } from '../../../electron/core/store/repositories/activity-canonical';
import { migrateTeamStore } from '../../../electron/core/team/migrate';
import { addMember } from '../../../electron/core/team/members';
import { TEAM_MIGRATIONS } from '../../../electron/core/team/migrations';
import { itWithPostgres as it, MEMBER_PASSWORD, useTeamDatabase } from '../../support/team-cluster';

// Migration 008 of the team store: a log entry written by one trigger, `team.json_text` inlined.
// A database at schema 7 logs; migrated to 8, each entry reads the same canonical text, the chain
// goes on, and the filters' counts are still kept, exactly, by the chain's trigger alone: an
// entry refused (or rolled back) is not counted.

const team = useTeamDatabase();

describe('migration 008: a log entry in one trigger', () => {
  it('keeps the canonical text, the chain and the counts across the change', async () => {
    const cluster = team.current!.cluster;
    const first = await team.current!.owner();
    await first.query('CREATE DATABASE before_eight');
    const connect = async (login?: string) => {
      const client = new Client({
        connectionString: cluster.url('before_eight', login, login && MEMBER_PASSWORD),
      });
      client.on('error', () => undefined);
      await client.connect();
      return client;
    };
    const owner = await connect();
    const seven = TEAM_MIGRATIONS.filter((m) => m.version <= 7);
    expect(await migrateTeamStore(owner, seven)).toEqual({ from: 0, to: 7 });
    await addMember(owner, {
      login: 'noor',
      displayName: 'Noor',
      roles: ['drafter', 'model-admin'],
      password: MEMBER_PASSWORD,
    });
    const noor = await connect('noor');
    const write = async (n: number) => {
      await noor.query("SELECT team.submit('draft', $1, 'Core “Equity”', $2, 'desk-n')", [
        `s-${n}`,
        JSON.stringify({ weight: `${n}.5`, note: 'ünïcode\n"quoted"' }),
      ]);
      await noor.query("SELECT team.save_model(gen_random_uuid(), $1, '', 'desk-n')", [`M${n}`]);
    };
    const canonical = async () =>
      (
        await owner.query<{ seq: string; canonical: string; previous_hash: string; hash: string }>(
          `SELECT seq, team.entry_canonical(a) AS canonical, previous_hash, hash
             FROM team.activity a ORDER BY seq`,
        )
      ).rows;
    // The counts kept, against the entries counted afresh.
    const counts = async () => {
      const kept = await owner.query(
        `SELECT day, kind, member::text, strategy_id, entries::int FROM team.activity_counts
          ORDER BY 1, 2, 3, 4`,
      );
      const recounted = await owner.query(
        `SELECT substr(at, 1, 10) AS day, kind, member::text, coalesce(strategy_id, '') AS strategy_id,
                count(*)::int AS entries
           FROM team.activity GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      );
      const totals = await owner.query(
        `SELECT kind, member::text, strategy_id, entries::int FROM team.activity_totals
          ORDER BY 1, 2, 3`,
      );
      const retotalled = await owner.query(
        `SELECT kind, member::text, coalesce(strategy_id, '') AS strategy_id, count(*)::int AS entries
           FROM team.activity GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      );
      expect(kept.rows).toEqual(recounted.rows);
      expect(totals.rows).toEqual(retotalled.rows);
      return kept.rows.reduce((sum, r: { entries: number }) => sum + r.entries, 0);
    };
    await write(1);
    await write(2);
    const before = await canonical();
    expect(before).toHaveLength(4);
    expect(await counts()).toBe(4);

    expect(
      await migrateTeamStore(
        owner,
        TEAM_MIGRATIONS.filter((m) => m.version <= 8),
      ),
    ).toEqual({
      from: 7,
      to: 8,
    });
    const { rows: shape } = await owner.query<{ volatile: string; triggers: string[] }>(
      `SELECT (SELECT provolatile::text FROM pg_proc WHERE oid = 'team.json_text(text)'::regprocedure)
                AS volatile,
              (SELECT array_agg(tgname::text ORDER BY tgname) FROM pg_trigger
                WHERE tgrelid = 'team.activity'::regclass AND NOT tgisinternal) AS triggers`,
    );
    expect(shape).toEqual([
      {
        volatile: 's',
        triggers: [
          'activity_announce',
          'activity_append_only',
          'activity_chain',
          'activity_no_truncate',
        ],
      },
    ]);
    expect((await canonical()).slice(0, 4)).toEqual(before);
    await write(3);
    // Refused entries are not counted: a payload that is not an object, and one rolled back.
    await expect(
      noor.query("INSERT INTO team.activity (desk, kind, payload) VALUES ('desk-n', 'x', '[]')"),
    ).rejects.toThrow(/payload is a JSON object/);
    await noor.query('BEGIN');
    await noor.query(
      "INSERT INTO team.activity (desk, kind, payload) VALUES ('desk-n', 'rolled.back', '{}')",
    );
    await noor.query('ROLLBACK');
    const after = await canonical();
    expect(after).toHaveLength(6);
    expect(await counts()).toBe(6);
    let previous = '0'.repeat(64);
    for (const entry of after) {
      expect(entry.previous_hash).toBe(previous);
      expect(entry.hash).toBe(entryHash(previous, entry.canonical));
      previous = entry.hash;
    }
    await Promise.all([noor.end(), owner.end()]);
  });
});
