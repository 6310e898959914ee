import type { RepositoryContext } from './context';

export type TeamConnectionsRepository = ReturnType<typeof teamConnectionsRepository>;

/** Where a profile's team store is and as whom its desk connects; never the password. */
export interface TeamConnection {
  profileId: string;
  host: string;
  port: number;
  database: string;
  /** The member's own PostgreSQL login. */
  member: string;
  /** The CA file a managed server's certificate is checked against (TLS verify-full); null: no TLS. */
  caFile: string | null;
  joinedAt: string;
}

interface TeamConnectionRow {
  profile_id: string;
  host: string;
  port: number;
  database: string;
  member: string;
  ca_file: string | null;
  joined_at: string;
}

const fromRow = (r: TeamConnectionRow): TeamConnection => ({
  profileId: r.profile_id,
  host: r.host,
  port: r.port,
  database: r.database,
  member: r.member,
  caFile: r.ca_file,
  joinedAt: r.joined_at,
});

export function teamConnectionsRepository({ db, now }: RepositoryContext) {
  // Prepared on first use: a file opened at an older schema (a migration's test) has no table yet.
  let statements: ReturnType<typeof prepare> | null = null;
  const prepare = () => ({
    selectOne: db.prepare<[string], TeamConnectionRow>(
      'SELECT * FROM team_connections WHERE profile_id = ?',
    ),
    selectAll: db.prepare<[], TeamConnectionRow>(
      'SELECT * FROM team_connections ORDER BY profile_id',
    ),
    upsert: db.prepare(
      `INSERT INTO team_connections (profile_id, host, port, database, member, ca_file, joined_at)
       VALUES (@profileId, @host, @port, @database, @member, @caFile, @joinedAt)
       ON CONFLICT (profile_id) DO UPDATE SET host = excluded.host, port = excluded.port,
         database = excluded.database, member = excluded.member, ca_file = excluded.ca_file,
         joined_at = excluded.joined_at`,
    ),
    remove: db.prepare('DELETE FROM team_connections WHERE profile_id = ?'),
  });
  const sql = () => (statements ??= prepare());
  return {
    get(profileId: string): TeamConnection | null {
      const row = sql().selectOne.get(profileId);
      return row ? fromRow(row) : null;
    },
    list(): TeamConnection[] {
      return sql().selectAll.all().map(fromRow);
    },
    set(connection: Omit<TeamConnection, 'joinedAt'>): TeamConnection {
      const joined = { ...connection, joinedAt: now() };
      sql().upsert.run(joined);
      return joined;
    },
    remove(profileId: string): boolean {
      return sql().remove.run(profileId).changes > 0;
    },
  };
}
