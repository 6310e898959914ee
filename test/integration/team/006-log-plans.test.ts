import { describe, expect } from 'vitest';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';
import { expectChained, teamLogAt } from '../../support/team-log-across';

// Migration 006 of the team store: the log's functions in PL/pgSQL write and read the very same
// chain. A database at schema 5 logs; migrated to 6, each entry reads the same canonical text,
// the chain goes on, and the whole of it checks with the desk's canonical form.

const team = useTeamDatabase();

describe('migration 006: the log’s plans kept', () => {
  it('keeps every entry’s canonical text and the chain across the change', async () => {
    const log = await teamLogAt(team.current!, 'before_six', 5);
    await log.write(1);
    await log.write(2);
    const before = await log.entries();
    expect(before).toHaveLength(4);

    expect(await log.migrateTo(6)).toEqual({ from: 5, to: 6 });
    const { rows: language } = await log.owner.query<{ proname: string; lanname: string }>(
      `SELECT p.proname, l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.pronamespace = 'team'::regnamespace AND p.proname IN ('entry_canonical', 'log')
        ORDER BY 1`,
    );
    expect(language).toEqual([
      { proname: 'entry_canonical', lanname: 'plpgsql' },
      { proname: 'log', lanname: 'plpgsql' },
    ]);
    expect((await log.entries()).slice(0, 4)).toEqual(before);
    await log.write(3);
    const after = await log.entries();
    expect(after).toHaveLength(6);
    expectChained(after);
    await log.end();
  });
});
