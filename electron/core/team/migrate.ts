import type { ClientBase } from 'pg';
import { TEAM_MIGRATIONS, type TeamMigration } from './migrations';
import { inTeamTransaction } from './transaction';

// Two `team init` runs at once must not both apply a step: one waits for the other.
const MIGRATION_LOCK = 0x5344534b;

/**
 * Applies the migrations the team database lacks, each in its own transaction with its recorded
 * version. A database whose schema is newer than this desk knows is refused: an older desk must
 * not write to a store it does not understand.
 */
export async function migrateTeamStore(
  client: ClientBase,
  migrations: readonly TeamMigration[] = TEAM_MIGRATIONS,
): Promise<{ from: number; to: number }> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS team;
      CREATE TABLE IF NOT EXISTS team.schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_by name NOT NULL DEFAULT session_user,
        applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    const from = await teamSchemaVersion(client);
    const latest = migrations.at(-1)?.version ?? 0;
    if (from > latest)
      throw new Error(
        `The team database is at schema version ${from}, newer than this desk knows (${latest}): update the app.`,
      );
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      await inTeamTransaction(client, async () => {
        await migration.up(client);
        await client.query('INSERT INTO team.schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
      });
    }
    return { from, to: Math.max(from, latest) };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

export async function teamSchemaVersion(client: ClientBase): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM team.schema_migrations',
  );
  return rows[0]?.version ?? 0;
}
