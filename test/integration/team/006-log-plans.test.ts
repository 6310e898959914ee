import { describe, expect } from 'vitest';
import { Client } from 'pg';
import { entryHash } from '../../../electron/core/store/repositories/activity-canonical';
import { migrateTeamStore } from '../../../electron/core/team/migrate';
import { addMember } from '../../../electron/core/team/members';
import { TEAM_MIGRATIONS } from '../../../electron/core/team/migrations';
import { itWithPostgres as it, MEMBER_PASSWORD, useTeamDatabase } from '../../support/team-cluster';

// Migration 006 of the team store: the log's functions in PL/pgSQL write and read the very same
// chain. A database at schema 5 logs; migrated to 6, each entry reads the same canonical text,
// the chain goes on, and the whole of it checks with the desk's canonical form.

const team = useTeamDatabase();

describe('migration 006: the log’s plans kept', () => {
  it('keeps every entry’s canonical text and the chain across the change', async () => {
    const cluster = team.current!.cluster;
    const first = await team.current!.owner();
    await first.query('CREATE DATABASE before_six');
    const connect = async (login?: string) => {
      const client = new Client({
        connectionString: cluster.url('before_six', login, login && MEMBER_PASSWORD),
      });
      client.on('error', () => undefined);
      await client.connect();
      return client;
    };
    const owner = await connect();
    const five = TEAM_MIGRATIONS.filter((m) => m.version <= 5);
    expect(await migrateTeamStore(owner, five)).toEqual({ from: 0, to: 5 });
    await addMember(owner, {
      login: 'mia',
      displayName: 'Mia',
      roles: ['drafter', 'model-admin'],
      password: MEMBER_PASSWORD,
    });
    const mia = await connect('mia');
    const write = async (n: number) => {
      await mia.query("SELECT team.submit('draft', $1, 'Core “Equity”', $2, 'desk-m')", [
        `s-${n}`,
        JSON.stringify({ weight: `${n}.5`, note: 'ünïcode\n"quoted"' }),
      ]);
      await mia.query("SELECT team.save_model(gen_random_uuid(), $1, '', 'desk-m')", [`M${n}`]);
    };
    const canonical = async () =>
      (
        await owner.query<{ seq: string; canonical: string; previous_hash: string; hash: string }>(
          `SELECT seq, team.entry_canonical(a) AS canonical, previous_hash, hash
             FROM team.activity a ORDER BY seq`,
        )
      ).rows;
    await write(1);
    await write(2);
    const before = await canonical();
    expect(before).toHaveLength(4);

    const six = TEAM_MIGRATIONS.filter((m) => m.version <= 6);
    expect(await migrateTeamStore(owner, six)).toEqual({ from: 5, to: 6 });
    const { rows: language } = await owner.query<{ proname: string; lanname: string }>(
      `SELECT p.proname, l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.pronamespace = 'team'::regnamespace AND p.proname IN ('entry_canonical', 'log')
        ORDER BY 1`,
    );
    expect(language).toEqual([
      { proname: 'entry_canonical', lanname: 'plpgsql' },
      { proname: 'log', lanname: 'plpgsql' },
    ]);
    expect((await canonical()).slice(0, 4)).toEqual(before);
    await write(3);
    const after = await canonical();
    expect(after).toHaveLength(6);
    let previous = '0'.repeat(64);
    for (const entry of after) {
      expect(entry.previous_hash).toBe(previous);
      expect(entry.hash).toBe(entryHash(previous, entry.canonical));
      previous = entry.hash;
    }
    await Promise.all([mia.end(), owner.end()]);
  });
});
