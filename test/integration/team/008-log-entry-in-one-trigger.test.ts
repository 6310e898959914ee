import { describe, expect } from 'vitest';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';
import { expectChained, teamLogAt } from '../../support/team-log-across';

// Migration 008 of the team store: a log entry written by one trigger, `team.json_text` inlined.
// A database at schema 7 logs; migrated to 8, each entry reads the same canonical text, the chain
// goes on, and the filters' counts are still kept, exactly, by the chain's trigger alone: an
// entry refused (or rolled back) is not counted.

const team = useTeamDatabase();

describe('migration 008: a log entry in one trigger', () => {
  it('keeps the canonical text, the chain and the counts across the change', async () => {
    const log = await teamLogAt(team.current!, 'before_eight', 7);
    const { owner, member } = log;
    // The counts kept, against the entries counted afresh; their sum.
    const counts = async () => {
      const kept = await owner.query(
        `SELECT day, kind, member::text, strategy_id, entries::int FROM team.activity_counts
          ORDER BY 1, 2, 3, 4`,
      );
      const recounted = await owner.query(
        `SELECT substr(at, 1, 10) AS day, kind, member::text,
                coalesce(strategy_id, '') AS strategy_id, count(*)::int AS entries
           FROM team.activity GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      );
      const totals = await owner.query(
        `SELECT kind, member::text, strategy_id, entries::int FROM team.activity_totals
          ORDER BY 1, 2, 3`,
      );
      const retotalled = await owner.query(
        `SELECT kind, member::text, coalesce(strategy_id, '') AS strategy_id,
                count(*)::int AS entries
           FROM team.activity GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      );
      expect(kept.rows).toEqual(recounted.rows);
      expect(totals.rows).toEqual(retotalled.rows);
      return kept.rows.reduce((sum, r: { entries: number }) => sum + r.entries, 0);
    };
    await log.write(1);
    await log.write(2);
    const before = await log.entries();
    expect(before).toHaveLength(4);
    expect(await counts()).toBe(4);

    expect(await log.migrateTo(8)).toEqual({ from: 7, to: 8 });
    const { rows: shape } = await owner.query<{ volatile: string; triggers: string[] }>(
      `SELECT (SELECT provolatile::text FROM pg_proc
                WHERE oid = 'team.json_text(text)'::regprocedure) AS volatile,
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
    expect((await log.entries()).slice(0, 4)).toEqual(before);
    await log.write(3);
    // Refused entries are not counted: a payload that is not an object, and one rolled back.
    await expect(
      member.query("INSERT INTO team.activity (desk, kind, payload) VALUES ('desk-m', 'x', '[]')"),
    ).rejects.toThrow(/payload is a JSON object/);
    await member.query('BEGIN');
    await member.query(
      "INSERT INTO team.activity (desk, kind, payload) VALUES ('desk-m', 'rolled.back', '{}')",
    );
    await member.query('ROLLBACK');
    const after = await log.entries();
    expect(after).toHaveLength(6);
    expect(await counts()).toBe(6);
    expectChained(after);
    await log.end();
  });
});
