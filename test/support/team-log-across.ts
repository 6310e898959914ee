import { expect } from 'vitest';
import { Client } from 'pg';
import { entryHash } from '../../electron/core/store/repositories/activity-canonical';
import { migrateTeamStore } from '../../electron/core/team/migrate';
import { addMember } from '../../electron/core/team/members';
import { TEAM_MIGRATIONS } from '../../electron/core/team/migrations';
import { MEMBER_PASSWORD, type TeamDatabase } from './team-cluster';

/** One entry of the team's log as its canonical text and its chain read it. */
export interface ChainedEntry {
  seq: string;
  canonical: string;
  previous_hash: string;
  hash: string;
}

/**
 * A team database of its own at schema `version` on the file's cluster, and a member (drafter,
 * model admin) writing to its log: for a migration's test that the log reads the same across it.
 * `write(n)` logs two entries (a submission with text to escape, a model), `entries()` reads the
 * log whole, `migrateTo` runs the migrations up to a version.
 */
export async function teamLogAt(team: TeamDatabase, database: string, version: number) {
  const first = await team.owner();
  await first.query(`CREATE DATABASE ${database}`);
  const connect = async (login?: string) => {
    const client = new Client({
      connectionString: team.cluster.url(database, login, login && MEMBER_PASSWORD),
    });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  const owner = await connect();
  const upTo = (v: number) => TEAM_MIGRATIONS.filter((m) => m.version <= v);
  expect(await migrateTeamStore(owner, upTo(version))).toEqual({ from: 0, to: version });
  await addMember(owner, {
    login: 'mia',
    displayName: 'Mia',
    roles: ['drafter', 'model-admin'],
    password: MEMBER_PASSWORD,
  });
  const member = await connect('mia');
  return {
    owner,
    member,
    migrateTo: (v: number) => migrateTeamStore(owner, upTo(v)),
    async write(n: number) {
      await member.query("SELECT team.submit('draft', $1, 'Core “Equity”', $2, 'desk-m')", [
        `s-${n}`,
        JSON.stringify({ weight: `${n}.5`, note: 'ünïcode\n"quoted"' }),
      ]);
      await member.query("SELECT team.save_model(gen_random_uuid(), $1, '', 'desk-m')", [`M${n}`]);
    },
    async entries(): Promise<ChainedEntry[]> {
      const { rows } = await owner.query<ChainedEntry>(
        `SELECT seq, team.entry_canonical(a) AS canonical, previous_hash, hash
           FROM team.activity a ORDER BY seq`,
      );
      return rows;
    },
    end: () => Promise.all([member.end(), owner.end()]),
  };
}

/** Each entry's hash is its predecessor's and its own canonical text's, from the chain's start. */
export function expectChained(entries: readonly ChainedEntry[]): void {
  let previous = '0'.repeat(64);
  for (const entry of entries) {
    expect(entry.previous_hash).toBe(previous);
    expect(entry.hash).toBe(entryHash(previous, entry.canonical));
    previous = entry.hash;
  }
}
