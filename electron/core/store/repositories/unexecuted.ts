import type { RepositoryContext } from './context';

/** How the app learned of an unexecuted version in the way. */
export type UnexecutedSource = 'imported' | 'named' | 'read';

/** An unexecuted version known to stand in the way of the strategy's next execution. */
export interface UnexecutedRecord {
  profileId: string;
  strategyId: string;
  versionId: string;
  learnedFrom: UnexecutedSource;
  learnedAt: string;
  /** Null when not scheduled, or not read yet (readAt null). */
  scheduledFor: string | null;
  insertedAt: string | null;
  /** When the app last read it from the service; null when only named by a refusal. */
  readAt: string | null;
}

interface Row {
  profile_id: string;
  strategy_id: string;
  version_id: string;
  learned_from: UnexecutedSource;
  learned_at: string;
  scheduled_for: string | null;
  inserted_at: string | null;
  read_at: string | null;
}

const fromRow = (r: Row): UnexecutedRecord => ({
  profileId: r.profile_id,
  strategyId: r.strategy_id,
  versionId: r.version_id,
  learnedFrom: r.learned_from,
  learnedAt: r.learned_at,
  scheduledFor: r.scheduled_for,
  insertedAt: r.inserted_at,
  readAt: r.read_at,
});

export type UnexecutedRepository = ReturnType<typeof unexecutedRepository>;

/**
 * The unexecuted versions in the way, per strategy (migration 007). Noted only for a strategy
 * the app holds; they go with it.
 */
export function unexecutedRepository({ db }: RepositoryContext) {
  // Prepared on first use: a file opened at an earlier schema (tests of older migrations) has no table.
  let statements: ReturnType<typeof prepare> | null = null;
  const prepare = () => ({
    // A name alone never overwrites what a read said.
    named: db.prepare(
      `INSERT INTO unexecuted_versions (profile_id, strategy_id, version_id, learned_from, learned_at)
       SELECT @profileId, @strategyId, @versionId, 'named', @at
       WHERE EXISTS (SELECT 1 FROM strategies WHERE profile_id = @profileId AND id = @strategyId)
       ON CONFLICT (profile_id, version_id) DO NOTHING`,
    ),
    read: db.prepare(
      `INSERT INTO unexecuted_versions (profile_id, strategy_id, version_id, learned_from,
         learned_at, scheduled_for, inserted_at, read_at)
       SELECT @profileId, @strategyId, @versionId, @from, @at, @scheduledFor, @insertedAt, @at
       WHERE EXISTS (SELECT 1 FROM strategies WHERE profile_id = @profileId AND id = @strategyId)
       ON CONFLICT (profile_id, version_id) DO UPDATE SET
         scheduled_for = excluded.scheduled_for, inserted_at = excluded.inserted_at,
         read_at = excluded.read_at`,
    ),
    forget: db.prepare('DELETE FROM unexecuted_versions WHERE profile_id = ? AND version_id = ?'),
    forgetStrategy: db.prepare(
      'DELETE FROM unexecuted_versions WHERE profile_id = ? AND strategy_id = ?',
    ),
    forStrategy: db.prepare<[string, string], Row>(
      `SELECT * FROM unexecuted_versions WHERE profile_id = ? AND strategy_id = ?
       ORDER BY learned_at, version_id`,
    ),
    one: db.prepare<[string, string], Row>(
      'SELECT * FROM unexecuted_versions WHERE profile_id = ? AND version_id = ?',
    ),
  });
  const s = () => (statements ??= prepare());

  return {
    /** The service named it when refusing an execution: remembered even if never read. */
    noteNamed(profileId: string, strategyId: string, versionId: string, at: string): void {
      s().named.run({ profileId, strategyId, versionId, at });
    },
    /** Read from the service (an import, or the read before a delete) and still unexecuted. */
    noteRead(
      profileId: string,
      version: {
        id: string;
        strategy_id: string;
        scheduled_for: string | null;
        inserted_at: string;
      },
      from: Exclude<UnexecutedSource, 'named'>,
      at: string,
    ): void {
      s().read.run({
        profileId,
        strategyId: version.strategy_id,
        versionId: version.id,
        from,
        at,
        scheduledFor: version.scheduled_for,
        insertedAt: version.inserted_at,
      });
    },
    /** No longer in the way: deleted, gone, or found executed. */
    forget(profileId: string, versionId: string): void {
      s().forget.run(profileId, versionId);
    },
    /** The service accepted an execution of the strategy: nothing was in its way. */
    forgetStrategy(profileId: string, strategyId: string): void {
      s().forgetStrategy.run(profileId, strategyId);
    },
    /** Oldest knowledge first, then by id: a total order. */
    listForStrategy(profileId: string, strategyId: string): UnexecutedRecord[] {
      return s().forStrategy.all(profileId, strategyId).map(fromRow);
    },
    get(profileId: string, versionId: string): UnexecutedRecord | null {
      const row = s().one.get(profileId, versionId);
      return row ? fromRow(row) : null;
    },
  };
}
