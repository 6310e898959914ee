import { z } from 'zod';
import { method, ok, strategyRef } from '../contract-parts';
import { uuid } from '../domain/resources';
import { exportIdField, exportResult } from '../views';
import {
  modelCsvImport,
  modelDetail,
  modelFollower,
  modelStart,
  modelSummary,
  revisionComparison,
  revisionDetail,
  revisionSummary,
} from './views';

const modelRef = z.object({ modelId: uuid }).strict();
const revisionRef = z.object({ revisionId: uuid }).strict();
const modelName = z.string().trim().min(1, 'Give the model a name').max(100);
const modelDescription = z.string().trim().max(2000);
const revisionNote = z.string().trim().max(200);
/** Rows as the manager typed them (the model's rules check them: kind invalid-model). */
const modelRowsInput = z
  .array(z.object({ symbol: z.string().max(64), weight: z.string().max(64) }).strict())
  .max(1000);

/**
 * The model library (docs/models.md): a model's rows are saved as immutable revisions; a strategy
 * of a profile follows at most one model, with a sync state. The desk's own library serves every
 * profile without a team; a profile in a team uses its team's (docs/team.md), kept in the team
 * store and cached on the desk, and may copy a model of the desk's own into it.
 */
export const modelsContract = {
  /**
   * The desk's own models by name; for a profile in a team, the team's models by name, then the
   * desk's own (each says its `library`). With `profileId`, each counts its followers in that
   * profile too (`followersInProfile`).
   */
  list: method(z.object({ profileId: uuid.optional() }).strict(), z.array(modelSummary)),
  get: method(modelRef, modelDetail),
  /**
   * Empty (no revision until saved), or with revision 1 from a draft or a strategy's known target.
   * `profileId`: the profile the manager works in; in a team, the model is the team's.
   */
  create: method(
    z
      .object({
        name: modelName,
        description: modelDescription.default(''),
        start: modelStart,
        note: revisionNote.optional(),
        profileId: uuid.optional(),
      })
      .strict(),
    modelDetail,
  ),
  /** Name and description only: the rows change through saveRevision. */
  update: method(
    z
      .object({
        modelId: uuid,
        name: modelName.optional(),
        description: modelDescription.optional(),
        profileId: uuid.optional(),
      })
      .strict(),
    modelSummary,
  ),
  /**
   * A model of the desk's own library into the profile's team's: its latest revision as the
   * team model's first (the same hash), the copy recorded in the team's log.
   */
  copyToTeam: method(z.object({ modelId: uuid, profileId: uuid }).strict(), modelDetail),
  /**
   * The rows as a new revision (kind invalid-model with every problem when the rules refuse
   * them). `basedOn`: the latest revision when editing began (null: none); a newer one saved
   * since refuses it (kind confirmation-outdated), on this desk or, for a team's model, on any
   * desk of the team. `profileId`: whose activity log records it (a team's log records a team's).
   */
  saveRevision: method(
    z
      .object({
        modelId: uuid,
        rows: modelRowsInput,
        note: revisionNote.default(''),
        basedOn: uuid.nullable().optional(),
        profileId: uuid.optional(),
      })
      .strict(),
    modelDetail,
  ),
  revision: method(revisionRef, revisionDetail),
  /** What `to` adds, removes and changes against `from`, with both weights. */
  compare: method(z.object({ from: uuid, to: uuid }).strict(), revisionComparison),
  /** Reads rows from a CSV file's text (nothing is saved: the editor takes them). */
  importCsv: method(z.object({ text: z.string().max(1_100_000) }).strict(), modelCsvImport),
  /** Writes a revision as CSV; the host chooses where (null: the manager cancelled). */
  exportCsv: method(
    z.object({ revisionId: uuid, ...exportIdField }).strict(),
    exportResult.nullable(),
  ),
  /**
   * The profile's strategies follow the model (one following another moves), pinned to
   * `revisionId` when given, else following its latest revision.
   */
  assign: method(
    z
      .object({
        profileId: uuid,
        modelId: uuid,
        // A book's whole tag at once: as many as a book selection names.
        strategyIds: z.array(uuid).min(1).max(10_000),
        revisionId: uuid.optional(),
      })
      .strict(),
    z.array(modelFollower),
  ),
  unassign: method(
    z.object({ profileId: uuid, strategyIds: z.array(uuid).min(1).max(1000) }).strict(),
    ok,
  ),
  /** The profile's strategies following the model, each with its sync state. */
  followers: method(z.object({ modelId: uuid, profileId: uuid }).strict(), z.array(modelFollower)),
  /** The model a strategy follows and its sync state; null when it follows none. */
  ofStrategy: method(strategyRef, modelFollower.nullable()),
};

export const modelsEvents = [
  /**
   * A model's revision was saved, or strategies were assigned to a model or unassigned: the
   * models whose line in the list changed, and every strategy whose model or sync state changed,
   * each as it follows now, so the book's column, the Overview and the Models screen update
   * without reading again.
   */
  z.object({
    type: z.literal('model-changed'),
    change: z.enum(['revision-saved', 'assigned', 'unassigned']),
    /**
     * Whose strategies were assigned or unassigned; for a save, the profile whose team's library
     * it is (null: the desk's own library, app-wide).
     */
    profileId: uuid.nullable(),
    /**
     * The revision saved or assigned (its number and hash); null for an unassign, and for a
     * team's model named before any revision.
     */
    revision: revisionSummary.nullable(),
    /**
     * Each model whose line changed, as `models.list` gives it (with `profileId`'s followers
     * counted when it is given).
     */
    models: z.array(modelSummary),
    strategies: z.array(
      z.object({
        profileId: uuid,
        strategyId: uuid,
        /** As `models.ofStrategy` gives it now (null: it follows no model any more). */
        follows: modelFollower.nullable(),
      }),
    ),
  }),
] as const;
