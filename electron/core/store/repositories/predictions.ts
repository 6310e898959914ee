import { randomUUID } from 'node:crypto';
import type { PredictedPosition, PredictionDifference } from '../../../../shared/draft';
import type { RepositoryContext } from './context';

export type TargetState = 'known' | 'unknown' | 'stale';

export interface PredictionRecord {
  id: string;
  profileId: string;
  strategyId: string;
  draftId: string | null;
  journalId: string | null;
  requestBody: string;
  knownVersionId: string | null;
  targetState: TargetState;
  prediction: PredictedPosition[];
  versionId: string | null;
  /** Null until the service's answer was compared. */
  differences: PredictionDifference[] | null;
  createdAt: string;
  comparedAt: string | null;
}

interface Row {
  id: string;
  profile_id: string;
  strategy_id: string;
  draft_id: string | null;
  journal_id: string | null;
  request_body: string;
  known_version_id: string | null;
  target_state: TargetState;
  prediction: string;
  version_id: string | null;
  differences: string | null;
  created_at: string;
  compared_at: string | null;
}

const fromRow = (r: Row): PredictionRecord => ({
  id: r.id,
  profileId: r.profile_id,
  strategyId: r.strategy_id,
  draftId: r.draft_id,
  journalId: r.journal_id,
  requestBody: r.request_body,
  knownVersionId: r.known_version_id,
  targetState: r.target_state,
  prediction: JSON.parse(r.prediction) as PredictedPosition[],
  versionId: r.version_id,
  differences:
    r.differences === null ? null : (JSON.parse(r.differences) as PredictionDifference[]),
  createdAt: r.created_at,
  comparedAt: r.compared_at,
});

export type PredictionsRepository = ReturnType<typeof predictionsRepository>;

/** Predictions of confirmed executions, their journal entry, the version they became. */
export function predictionsRepository({ db, now }: RepositoryContext) {
  // Prepared on first use: a file opened at an earlier schema (tests of older migrations) has no table.
  let statements: ReturnType<typeof prepare> | null = null;
  const prepare = () => {
    const insert = db.prepare(
      `INSERT INTO execution_predictions (id, profile_id, strategy_id, draft_id, request_body,
         known_version_id, target_state, prediction, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const link = db.prepare('UPDATE execution_predictions SET journal_id = ? WHERE id = ?');
    const compared = db.prepare(
      `UPDATE execution_predictions SET version_id = ?, differences = ?, compared_at = ?
       WHERE id = ?`,
    );
    const byId = db.prepare<[string], Row>('SELECT * FROM execution_predictions WHERE id = ?');
    const byJournal = db.prepare<[string], Row>(
      'SELECT * FROM execution_predictions WHERE journal_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
    );
    const byVersion = db.prepare<[string, string], Row>(
      `SELECT * FROM execution_predictions WHERE profile_id = ? AND version_id = ?
       ORDER BY compared_at DESC, rowid DESC LIMIT 1`,
    );
    const insertBaseline = db.prepare(
      `INSERT OR IGNORE INTO target_baselines
         (profile_id, strategy_id, version_id, strategy_updated_at, recorded_at)
       VALUES (?, ?, ?, ?, ?)`,
    );
    const selectBaseline = db.prepare<[string, string, string], { strategy_updated_at: string }>(
      `SELECT strategy_updated_at FROM target_baselines
       WHERE profile_id = ? AND strategy_id = ? AND version_id = ?`,
    );
    return {
      insert,
      link,
      compared,
      byId,
      byJournal,
      byVersion,
      insertBaseline,
      selectBaseline,
    };
  };
  const q = () => (statements ??= prepare());

  return {
    /** Written before the request is sent, so a prediction exists for every answer. */
    record(input: {
      profileId: string;
      strategyId: string;
      draftId: string | null;
      requestBody: string;
      knownVersionId: string | null;
      targetState: TargetState;
      prediction: readonly PredictedPosition[];
    }): PredictionRecord {
      const id = randomUUID();
      q().insert.run(
        id,
        input.profileId,
        input.strategyId,
        input.draftId,
        input.requestBody,
        input.knownVersionId,
        input.targetState,
        JSON.stringify(input.prediction),
        now(),
      );
      return fromRow(q().byId.get(id)!);
    },
    linkJournal(id: string, journalId: string): void {
      q().link.run(journalId, id);
    },
    /** The service answered (202): the version it created and where it differed. */
    recordAnswer(id: string, versionId: string, differences: readonly PredictionDifference[]) {
      q().compared.run(versionId, JSON.stringify(differences), now(), id);
      return fromRow(q().byId.get(id)!);
    },
    get(id: string): PredictionRecord | null {
      const row = q().byId.get(id);
      return row ? fromRow(row) : null;
    },
    forJournal(journalId: string): PredictionRecord | null {
      const row = q().byJournal.get(journalId);
      return row ? fromRow(row) : null;
    },
    forVersion(profileId: string, versionId: string): PredictionRecord | null {
      const row = q().byVersion.get(profileId, versionId);
      return row ? fromRow(row) : null;
    },
    /** The strategy's update time first seen settled on this version (kept once written). */
    baselineOf(profileId: string, strategyId: string, versionId: string): string | null {
      return q().selectBaseline.get(profileId, strategyId, versionId)?.strategy_updated_at ?? null;
    },
    recordBaseline(profileId: string, strategyId: string, versionId: string, updatedAt: string) {
      q().insertBaseline.run(profileId, strategyId, versionId, updatedAt, now());
    },
  };
}
