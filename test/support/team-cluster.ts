import { afterAll, beforeAll } from 'vitest';
import { Client } from 'pg';
import { migrateTeamStore } from '../../electron/core/team/migrate';
import { addMember } from '../../electron/core/team/members';
import type { Desk } from '../../electron/core/desk';
import type { TeamRole } from '../../electron/core/team/migrations';
import { findPostgres, startPostgresCluster, type PostgresCluster } from './postgres-cluster';
import { itNeeds } from './system-parts';

export const postgres = findPostgres();
/** `it` for tests that need PostgreSQL: skipped with a message on a laptop, failing under CI. */
export const itWithPostgres = itNeeds(postgres);

export interface TeamDatabase {
  cluster: PostgresCluster;
  database: string;
  /** A client connected as the team's owner (who ran `team init`). */
  owner(): Promise<Client>;
  /** A client connected as a member with their own credentials. */
  as(login: string): Promise<Client>;
  addMember(login: string, roles: TeamRole[]): Promise<void>;
  /** A desk's profile joins this team as `member`, with the member's test password. */
  join(desk: Pick<Desk, 'team'>, profileId: string, member: string): Promise<unknown>;
}

export const MEMBER_PASSWORD = 'member-password-for-tests';

/**
 * One throwaway cluster per test file with a migrated team database; every client opened is
 * closed after the file.
 */
export function useTeamDatabase(database = 'team'): { current: TeamDatabase | undefined } {
  const holder: { current: TeamDatabase | undefined } = { current: undefined };
  const clients: Client[] = [];
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    if (!postgres.available) return;
    cluster = await startPostgresCluster(postgres);
    const admin = new Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const connect = async (url: string) => {
      const client = new Client({ connectionString: url });
      // A test that stops the cluster ends these connections; that is not a failure of the test.
      client.on('error', () => undefined);
      await client.connect();
      clients.push(client);
      return client;
    };
    const c = cluster;
    const owner = () => connect(c.url(database));
    await migrateTeamStore(await owner());
    holder.current = {
      cluster: c,
      database,
      owner,
      as: (login) => connect(c.url(database, login, MEMBER_PASSWORD)),
      addMember: async (login, roles) =>
        addMember(await owner(), { login, displayName: login, roles, password: MEMBER_PASSWORD }),
      join: (desk, profileId, member) =>
        desk.team.join({
          profileId,
          host: '127.0.0.1',
          port: c.port,
          database,
          member,
          password: MEMBER_PASSWORD,
          caFile: null,
        }),
    };
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await cluster?.drop();
  }, 60_000);
  return holder;
}
