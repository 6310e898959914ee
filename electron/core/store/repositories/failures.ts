import type { RepositoryContext } from './context';

/**
 * Executions that failed, wholly or in part, and whether the manager has acknowledged them. An
 * executed version needs attention when it ended FAILED or has at least one FAILED order, until
 * it is acknowledged (migration 008). IGNORED orders alone do not count: they are the service's
 * rule for orders below its minimum value, a routine part of a rebalance shown on the version.
 */
export type FailuresRepository = ReturnType<typeof failuresRepository>;

/**
 * The failed executed versions and the versions with a failed order, each read from its index
 * of failed rows only (named: scoped to a profile, SQLite would rather walk all of its versions).
 */
const FAILED = `SELECT profile_id, id AS version_id, strategy_id FROM versions INDEXED BY versions_failed
    WHERE status = 'FAILED' AND executed_at IS NOT NULL
  UNION
  SELECT o.profile_id, o.version_id, v.strategy_id FROM orders o
    JOIN versions v ON v.profile_id = o.profile_id AND v.id = o.version_id
    WHERE o.status = 'FAILED' AND v.executed_at IS NOT NULL`;
const UNSEEN = `NOT EXISTS (SELECT 1 FROM version_failures_acknowledged a
    WHERE a.profile_id = f.profile_id AND a.version_id = f.version_id)`;

export function failuresRepository({ db }: RepositoryContext) {
  // Prepared on first use: a store opened at an older schema (a migration test) has no table yet.
  let prepared: ReturnType<typeof prepare> | null = null;
  const statements = () => (prepared ??= prepare());
  const prepare = () => ({
    countUnseen: db
      .prepare<[], number>(`SELECT count(*) FROM (${FAILED}) f WHERE ${UNSEEN}`)
      .pluck(),
    unseenForProfile: db.prepare<[string], { strategy_id: string; version_id: string }>(
      `SELECT f.strategy_id, f.version_id FROM (${FAILED}) f WHERE f.profile_id = ? AND ${UNSEEN}
       ORDER BY f.strategy_id, f.version_id`,
    ),
    isFailed: db
      .prepare<[string, string, string, string], number>(
        `SELECT EXISTS (SELECT 1 FROM versions WHERE profile_id = ? AND id = ?
             AND status = 'FAILED' AND executed_at IS NOT NULL)
           OR EXISTS (SELECT 1 FROM orders WHERE profile_id = ? AND version_id = ?
             AND status = 'FAILED')`,
      )
      .pluck(),
    insert: db.prepare(
      `INSERT INTO version_failures_acknowledged (profile_id, version_id, acknowledged_at)
       VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    selectAcknowledged: db
      .prepare<[string, string], string>(
        `SELECT acknowledged_at FROM version_failures_acknowledged
         WHERE profile_id = ? AND version_id = ?`,
      )
      .pluck(),
  });

  return {
    /** Failed or partly failed executions not yet acknowledged, across profiles (the status bar). */
    countUnacknowledged(): number {
      return statements().countUnseen.get() ?? 0;
    },
    /** A profile's strategies with such an execution (their dot in the sidebar), by strategy id. */
    unacknowledgedByStrategy(profileId: string): Map<string, string[]> {
      const byStrategy = new Map<string, string[]>();
      for (const row of statements().unseenForProfile.all(profileId)) {
        const list = byStrategy.get(row.strategy_id);
        if (list) list.push(row.version_id);
        else byStrategy.set(row.strategy_id, [row.version_id]);
      }
      return byStrategy;
    },
    /** The version ended FAILED or has a FAILED order. */
    hasFailed(profileId: string, versionId: string): boolean {
      return statements().isFailed.get(profileId, versionId, profileId, versionId) === 1;
    },
    /** Records that the manager saw it (the first acknowledgement's time is kept). */
    acknowledge(profileId: string, versionId: string, at: string): void {
      statements().insert.run(profileId, versionId, at);
    },
    acknowledgedAt(profileId: string, versionId: string): string | null {
      return statements().selectAcknowledged.get(profileId, versionId) ?? null;
    },
  };
}
