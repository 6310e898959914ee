import { randomUUID } from 'node:crypto';
import type { RepositoryContext } from './context';

/**
 * The model library and its assignments (migrations 010, 019). The desk's own models are
 * app-wide; a team's are cached here from its team store (`team`), with the team's ids and
 * numbers. A revision and its rows are written once, in one transaction, and never changed (the
 * schema refuses an UPDATE). Assignments are per profile: a strategy follows at most one model.
 */

export interface StoredModel {
  id: string;
  /** The team's library it is cached from (`host:port/database`); null: this desk's own. */
  team: string | null;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export interface StoredRevision {
  id: string;
  modelId: string;
  number: number;
  createdAt: string;
  note: string;
  hash: string;
  total: string;
  rowCount: number;
  /** The member who saved a team's revision; null for the desk's own. */
  savedBy: string | null;
}

/** A revision of a team's model as its team store holds it: cached with its id and number. */
export interface TeamRevisionFacts {
  id: string;
  number: number;
  createdAt: string;
  note: string;
  hash: string;
  total: string;
  savedBy: string;
}

export interface StoredModelRow {
  symbol: string;
  weight: string;
}

export interface StoredAssignment {
  profileId: string;
  strategyId: string;
  modelId: string;
  /** The pinned revision; null: the model's latest. */
  revisionId: string | null;
  assignedAt: string;
}

interface ModelRecord {
  id: string;
  team: string | null;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}
interface RevisionRecord {
  id: string;
  model_id: string;
  number: number;
  created_at: string;
  note: string;
  hash: string;
  total: string;
  row_count: number;
  saved_by: string | null;
}
interface AssignmentRecord {
  profile_id: string;
  strategy_id: string;
  model_id: string;
  revision_id: string | null;
  assigned_at: string;
}

const model = (r: ModelRecord): StoredModel => ({
  id: r.id,
  team: r.team ?? null,
  name: r.name,
  description: r.description,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const revision = (r: RevisionRecord): StoredRevision => ({
  id: r.id,
  modelId: r.model_id,
  number: r.number,
  createdAt: r.created_at,
  note: r.note,
  hash: r.hash,
  total: r.total,
  rowCount: r.row_count,
  savedBy: r.saved_by ?? null,
});
const assignment = (r: AssignmentRecord): StoredAssignment => ({
  profileId: r.profile_id,
  strategyId: r.strategy_id,
  modelId: r.model_id,
  revisionId: r.revision_id,
  assignedAt: r.assigned_at,
});

const REVISION = `SELECT v.*, (SELECT count(*) FROM model_revision_rows r WHERE r.revision_id = v.id)
  AS row_count FROM model_revisions v`;

export type ModelsRepository = ReturnType<typeof modelsRepository>;

export function modelsRepository({ db, now }: RepositoryContext) {
  // Prepared on first use: a store opened at an older schema (tests) has no models tables.
  const prepareAll = () => {
    const insertModel = db.prepare(
      'INSERT INTO models (id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    const selectModel = db.prepare<[string], ModelRecord>('SELECT * FROM models WHERE id = ?');
    const updateModel = db.prepare(
      'UPDATE models SET name = ?, description = ?, updated_at = ? WHERE id = ?',
    );
    const touchModel = db.prepare('UPDATE models SET updated_at = ? WHERE id = ?');
    const selectRevision = db.prepare<[string], RevisionRecord>(`${REVISION} WHERE v.id = ?`);
    const selectRevisions = db.prepare<[string], RevisionRecord>(
      `${REVISION} WHERE v.model_id = ? ORDER BY v.number DESC`,
    );
    const selectLatest = db.prepare<[string], RevisionRecord>(
      `${REVISION} WHERE v.model_id = ? ORDER BY v.number DESC LIMIT 1`,
    );
    const selectNextNumber = db.prepare<[string], { next: number }>(
      'SELECT coalesce(max(number), 0) + 1 AS next FROM model_revisions WHERE model_id = ?',
    );
    const insertRevision = db.prepare(
      `INSERT INTO model_revisions (id, model_id, number, created_at, note, hash, total)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertRow = db.prepare(
      'INSERT INTO model_revision_rows (revision_id, position, symbol, weight) VALUES (?, ?, ?, ?)',
    );
    const selectRows = db.prepare<[string], StoredModelRow>(
      'SELECT symbol, weight FROM model_revision_rows WHERE revision_id = ? ORDER BY position',
    );
    const upsertAssignment = db.prepare(
      `INSERT INTO model_assignments (profile_id, strategy_id, model_id, revision_id, assigned_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (profile_id, strategy_id) DO UPDATE SET model_id = excluded.model_id,
         revision_id = excluded.revision_id, assigned_at = excluded.assigned_at`,
    );
    const deleteAssignment = db.prepare(
      'DELETE FROM model_assignments WHERE profile_id = ? AND strategy_id = ?',
    );
    const selectAssignment = db.prepare<[string, string], AssignmentRecord>(
      'SELECT * FROM model_assignments WHERE profile_id = ? AND strategy_id = ?',
    );
    const selectFollowers = db.prepare<[string, string], AssignmentRecord>(
      `SELECT * FROM model_assignments WHERE model_id = ? AND profile_id = ?
       ORDER BY strategy_id`,
    );
    const selectLatestFollowers = db.prepare<[string], AssignmentRecord>(
      `SELECT * FROM model_assignments WHERE model_id = ? AND revision_id IS NULL
       ORDER BY profile_id, strategy_id`,
    );
    const selectProfileAssignments = db.prepare<[string], AssignmentRecord>(
      'SELECT * FROM model_assignments WHERE profile_id = ? ORDER BY strategy_id',
    );
    const countFollowers = db.prepare<[], { model_id: string; n: number }>(
      'SELECT model_id, count(*) AS n FROM model_assignments GROUP BY model_id',
    );
    const countFollowersIn = db.prepare<[string], { model_id: string; n: number }>(
      'SELECT model_id, count(*) AS n FROM model_assignments WHERE profile_id = ? GROUP BY model_id',
    );
    const countRevisions = db.prepare<[], { model_id: string; n: number }>(
      'SELECT model_id, count(*) AS n FROM model_revisions GROUP BY model_id',
    );
    return {
      insertModel,
      selectModel,
      updateModel,
      touchModel,
      selectRevision,
      selectRevisions,
      selectLatest,
      selectNextNumber,
      insertRevision,
      insertRow,
      selectRows,
      upsertAssignment,
      deleteAssignment,
      selectAssignment,
      selectFollowers,
      selectLatestFollowers,
      selectProfileAssignments,
      countFollowers,
      countFollowersIn,
      countRevisions,
    };
  };
  let statements: ReturnType<typeof prepareAll> | undefined;
  const q = () => (statements ??= prepareAll());
  // Those of migration 019 apart: a store at an older schema (tests) still makes models.
  const prepareTeam = () => ({
    // Names sort as the manager reads them; the id breaks ties, so the order is total.
    selectModels: db.prepare<[string | null], ModelRecord>(
      'SELECT * FROM models WHERE team IS ? ORDER BY name COLLATE NOCASE, id',
    ),
    // A team's model as its store has it: added, or its name and description changed.
    cacheModel: db.prepare(
      `INSERT INTO models (id, team, name, description, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
         updated_at = excluded.updated_at
       WHERE models.name IS NOT excluded.name OR models.description IS NOT excluded.description`,
    ),
    insertRevision: db.prepare(
      `INSERT INTO model_revisions (id, model_id, number, created_at, note, hash, total, saved_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  });
  let teamStatements: ReturnType<typeof prepareTeam> | undefined;
  const t = () => (teamStatements ??= prepareTeam());

  const addRevision = db.transaction(
    (
      modelId: string,
      rows: readonly StoredModelRow[],
      facts: { note: string; hash: string; total: string },
      at: string,
    ): StoredRevision => {
      const id = randomUUID();
      const number = q().selectNextNumber.get(modelId)!.next;
      q().insertRevision.run(id, modelId, number, at, facts.note, facts.hash, facts.total);
      rows.forEach((row, i) => q().insertRow.run(id, i, row.symbol, row.weight));
      q().touchModel.run(at, modelId);
      return revision(q().selectRevision.get(id)!);
    },
  );
  const cacheRevision = db.transaction(
    (modelId: string, facts: TeamRevisionFacts, rows: readonly StoredModelRow[]): boolean => {
      if (q().selectRevision.get(facts.id)) return false;
      const { id, number, createdAt, note, hash, total, savedBy } = facts;
      t().insertRevision.run(id, modelId, number, createdAt, note, hash, total, savedBy);
      rows.forEach((row, i) => q().insertRow.run(id, i, row.symbol, row.weight));
      q().touchModel.run(createdAt, modelId);
      return true;
    },
  );

  return {
    create(input: { name: string; description: string }): StoredModel {
      const id = randomUUID();
      const at = now();
      q().insertModel.run(id, input.name, input.description, at, at);
      return model(q().selectModel.get(id)!);
    },
    get(modelId: string): StoredModel | null {
      const r = q().selectModel.get(modelId);
      return r ? model(r) : null;
    },
    /** The desk's own models (`team` null), or those cached of a team's library, by name. */
    list(team: string | null = null): StoredModel[] {
      return t().selectModels.all(team).map(model);
    },
    /** A team's model as its store has it; true when it is new here or its words changed. */
    cacheModel(input: {
      id: string;
      team: string;
      name: string;
      description: string;
      createdAt: string;
    }): boolean {
      const { id, team, name, description, createdAt } = input;
      return t().cacheModel.run(id, team, name, description, createdAt, now()).changes > 0;
    },
    /** A team's revision with its rows, unless it is here already (true: it was added). */
    cacheRevision(
      modelId: string,
      facts: TeamRevisionFacts,
      rows: readonly StoredModelRow[],
    ): boolean {
      return cacheRevision(modelId, facts, rows);
    },
    /** Name and description are the model's own, not a revision's: changed in place. */
    update(modelId: string, patch: { name: string; description: string }): boolean {
      return q().updateModel.run(patch.name, patch.description, now(), modelId).changes > 0;
    },
    /** A new revision numbered after the model's last, its rows in the order given. */
    addRevision(
      modelId: string,
      rows: readonly StoredModelRow[],
      facts: { note: string; hash: string; total: string },
    ): StoredRevision {
      return addRevision(modelId, rows, facts, now());
    },
    revision(revisionId: string): StoredRevision | null {
      const r = q().selectRevision.get(revisionId);
      return r ? revision(r) : null;
    },
    /** Newest first. */
    revisions(modelId: string): StoredRevision[] {
      return q().selectRevisions.all(modelId).map(revision);
    },
    latest(modelId: string): StoredRevision | null {
      const r = q().selectLatest.get(modelId);
      return r ? revision(r) : null;
    },
    rows(revisionId: string): StoredModelRow[] {
      return q().selectRows.all(revisionId);
    },
    /**
     * Followers of each model over every profile (and in `profileId`'s, when given), and
     * revisions of each model.
     */
    counts(profileId?: string): {
      followers: Map<string, number>;
      followersIn: Map<string, number> | null;
      revisions: Map<string, number>;
    } {
      return {
        followers: new Map(
          q()
            .countFollowers.all()
            .map((r) => [r.model_id, r.n]),
        ),
        followersIn:
          profileId === undefined
            ? null
            : new Map(
                q()
                  .countFollowersIn.all(profileId)
                  .map((r) => [r.model_id, r.n]),
              ),
        revisions: new Map(
          q()
            .countRevisions.all()
            .map((r) => [r.model_id, r.n]),
        ),
      };
    },
    /** Each strategy follows the model from now on (a strategy following another moves). */
    assign(
      profileId: string,
      strategyIds: readonly string[],
      modelId: string,
      revisionId: string | null,
    ): void {
      const at = now();
      for (const strategyId of strategyIds)
        q().upsertAssignment.run(profileId, strategyId, modelId, revisionId, at);
    },
    /** True when the strategy followed a model. */
    unassign(profileId: string, strategyId: string): boolean {
      return q().deleteAssignment.run(profileId, strategyId).changes > 0;
    },
    assignmentOf(profileId: string, strategyId: string): StoredAssignment | null {
      const r = q().selectAssignment.get(profileId, strategyId);
      return r ? assignment(r) : null;
    },
    /** Every assignment of a profile, by strategy id (the book's model column). */
    assignmentsOf(profileId: string): StoredAssignment[] {
      return q().selectProfileAssignments.all(profileId).map(assignment);
    },
    /** A profile's strategies following the model, by strategy id. */
    followers(modelId: string, profileId: string): StoredAssignment[] {
      return q().selectFollowers.all(modelId, profileId).map(assignment);
    },
    /** Every profile's strategies following the model's latest revision (not pinned), in order. */
    latestFollowers(modelId: string): StoredAssignment[] {
      return q().selectLatestFollowers.all(modelId).map(assignment);
    },
  };
}
