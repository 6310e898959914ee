import { normalizeSymbol } from '../../../shared/draft/rules';
import { DeskError } from '../../../shared/errors';
import { compareWeights } from '../../../shared/models/compare';
import { validateModelRows } from '../../../shared/models/rules';
import type {
  ModelDetail,
  ModelStart,
  ModelSummary,
  RevisionComparison,
  RevisionDetail,
} from '../../../shared/models/views';
import { recordRevisionSaved } from '../activity/record-models';
import type { Store, StoredModel, StoredModelRow, StoredRevision } from '../store';
import { knownTargetWithCheck } from '../strategies/targets';
import { revisionHash } from './hash';
import {
  modelChanged,
  modelDetailView,
  modelSummaryView,
  revisionDetailView,
  revisionView,
  type AnnounceModelChange,
} from './views';

/**
 * The model library (app-wide): creating a model, saving its rows as a new immutable revision
 * (checked by the draft's rules, hashed in canonical form, recorded in the activity log, announced
 * with the followers it moves), reading and comparing revisions. docs/models.md tells the rules.
 * A team's models are read here too, from the desk's cache of them; they are written through the
 * team store (team-library.ts), with the same rules (`checkedRows`, `startOf`).
 */

export interface RowsToSave {
  modelId: string;
  rows: readonly { symbol: string; weight: string }[];
  note: string;
  /** The profile the manager works in: its activity log records the save. */
  profileId?: string | undefined;
  /** The latest revision when editing began: a newer one saved since refuses the save. */
  basedOn?: string | null | undefined;
}

export const modelNotFound = (what = 'This model') =>
  new DeskError({ kind: 'model-not-found', message: `${what} is not in this app.` });

export class ModelLibrary {
  constructor(
    private readonly store: Store,
    private readonly announce: AnnounceModelChange,
  ) {}

  /**
   * The desk's own models, or a team's (`team`: its key) as cached here; with `profileId`, their
   * followers in that profile counted too.
   */
  list(profileId?: string, team: string | null = null): ModelSummary[] {
    const counts = this.store.models.counts(profileId);
    return this.store.models.list(team).map((m) => modelSummaryView(this.store, m, counts));
  }

  get(modelId: string): ModelDetail {
    return modelDetailView(this.store, this.model(modelId));
  }

  model(modelId: string): StoredModel {
    const model = this.store.models.get(modelId);
    if (!model) throw modelNotFound();
    return model;
  }

  /** A model of this desk's own library: a team's is changed through its team store only. */
  private ownModel(modelId: string): StoredModel {
    const model = this.model(modelId);
    if (model.team !== null)
      throw new DeskError({
        kind: 'invalid-input',
        message: `“${model.name}” is in the team's library (${model.team}): it changes through the team store, from a profile in that team.`,
      });
    return model;
  }

  revisionOf(revisionId: string): StoredRevision {
    const revision = this.store.models.revision(revisionId);
    if (!revision) throw modelNotFound('This model revision');
    return revision;
  }

  /** Empty (no revision until the first save), or with a first revision from a draft or a target. */
  create(input: {
    name: string;
    description: string;
    start: ModelStart;
    note?: string | undefined;
    profileId?: string | undefined;
  }): ModelDetail {
    const first = this.startOf(input.start);
    return this.store.transaction(() => {
      const model = this.store.models.create({
        name: input.name,
        description: input.description,
      });
      if (first)
        this.save(model, {
          modelId: model.id,
          rows: first.rows,
          note: input.note ?? first.note,
          profileId: first.profileId,
        });
      return modelDetailView(this.store, this.model(model.id));
    });
  }

  update(input: { modelId: string; name?: string | undefined; description?: string | undefined }) {
    const model = this.ownModel(input.modelId);
    this.store.models.update(model.id, {
      name: input.name ?? model.name,
      description: input.description ?? model.description,
    });
    return modelSummaryView(this.store, this.model(model.id));
  }

  /** Announced once stored: every strategy following the latest revision follows this one now. */
  saveRevision(input: RowsToSave): ModelDetail {
    const model = this.ownModel(input.modelId);
    const revision = this.store.transaction(() => {
      const latest = this.store.models.latest(model.id);
      if (input.basedOn !== undefined && (latest?.id ?? null) !== input.basedOn)
        throw new DeskError({
          kind: 'confirmation-outdated',
          message:
            `Revision ${latest?.number ?? '—'} of “${model.name}” was saved since this editor ` +
            'opened (another window?). Nothing was saved: open the model again to see it.',
        });
      const checked = this.checkedRows(input.rows);
      if (latest && latest.hash === checked.hash)
        throw new DeskError({
          kind: 'invalid-input',
          message:
            `These rows target the same weights as revision ${latest.number} (the same hash): ` +
            'there is nothing new to save.',
        });
      return this.save(model, input, checked);
    });
    this.announce(
      modelChanged(this.store, {
        change: 'revision-saved',
        profileId: null,
        revision,
        modelIds: [model.id],
        strategies: this.store.models.latestFollowers(model.id),
      }),
    );
    return modelDetailView(this.store, this.model(model.id));
  }

  revision(revisionId: string): RevisionDetail {
    return revisionDetailView(this.store, this.revisionOf(revisionId));
  }

  /** What `to` adds, removes and changes against `from` (both of the same model or not). */
  compare(fromId: string, toId: string): RevisionComparison {
    const from = this.revisionOf(fromId);
    const to = this.revisionOf(toId);
    const comparison = compareWeights(
      this.store.models.rows(from.id),
      this.store.models.rows(to.id),
    );
    return { from: revisionView(from), to: revisionView(to), ...comparison };
  }

  /**
   * The rows as saved (symbols trimmed and upper-cased, weights trimmed), their total and hash;
   * refused with every problem.
   */
  checkedRows(rows: RowsToSave['rows']): {
    rows: StoredModelRow[];
    total: string;
    hash: string;
  } {
    const validation = validateModelRows(rows);
    if (!validation.valid)
      throw new DeskError({
        kind: 'invalid-model',
        message: `The model cannot be saved as it is: ${validation.messages[0]}${
          validation.messages.length > 1 ? ` (and ${validation.messages.length - 1} more)` : ''
        }`,
        details: { messages: validation.messages },
      });
    const saved = rows.map((r) => ({ symbol: normalizeSymbol(r.symbol), weight: r.weight.trim() }));
    return { rows: saved, total: validation.total, hash: revisionHash(saved) };
  }

  private save(
    model: StoredModel,
    input: RowsToSave,
    { rows, total, hash } = this.checkedRows(input.rows),
  ): StoredRevision {
    const note = input.note.trim();
    return recordRevisionSaved(this.store, input.profileId ?? null, model, () => ({
      revision: this.store.models.addRevision(model.id, rows, { note, hash, total }),
      rows,
    }));
  }

  /** A new model's first rows and its revision's note (null: it starts empty). */
  startOf(start: ModelStart): { rows: StoredModelRow[]; note: string; profileId: string } | null {
    if (start.kind === 'empty') return null;
    if (start.kind === 'draft') {
      const draft = this.store.drafts.get(start.draftId);
      if (!draft)
        throw new DeskError({ kind: 'not-found', message: 'This draft is not in this app.' });
      return {
        // A blank line left at the end of a draft is no row of the model.
        rows: draft.rows
          .filter((r) => r.symbol.trim() !== '' || r.weight.trim() !== '')
          .map((r) => ({ symbol: r.symbol, weight: r.weight })),
        note: `From draft “${draft.name}”`,
        profileId: draft.profileId,
      };
    }
    const strategy = this.store.strategies.get(start.profileId, start.strategyId);
    if (!strategy)
      throw new DeskError({ kind: 'not-found', message: 'This strategy is not in this app.' });
    const { target, check } = knownTargetWithCheck(
      this.store,
      start.profileId,
      strategy,
      strategy.positions ?? [],
    );
    // An unknown target is not an empty one: a model started from it would silently be empty.
    if (target === null)
      throw new DeskError({
        kind: 'invalid-input',
        message:
          `The current target of “${strategy.name}” is not known here: no executed version of it ` +
          'was created or imported in this app, so a model cannot start from it. Import its ' +
          'latest executed version by id (Versions tab) first, or start from a draft.',
      });
    const uncertain = check !== null && !check.fits;
    // A target the holdings no longer fit may be an old one: copied only when the manager knows.
    if (uncertain && start.acceptUncertain !== true)
      throw new DeskError({
        kind: 'stale-not-acknowledged',
        message:
          `The known target of “${strategy.name}” (version ${target.versionId}) may be out of ` +
          `date: ${uncertainWhy(check)}; a version may have been executed elsewhere. Read the ` +
          'strategy first, or start from this old target knowingly. No model was created.',
      });
    return {
      rows: target.positions.map((p) => ({ symbol: p.symbol, weight: p.weight })),
      note:
        `From the known target of “${strategy.name}” (version ${target.versionId})` +
        (uncertain ? ', flagged changed elsewhere when copied' : ''),
      profileId: start.profileId,
    };
  }
}

/** Why a known target is in doubt, in the words the strategy's page uses. */
function uncertainWhy(check: {
  heldNotInTarget: readonly string[];
  targetNotHeld: readonly string[];
  updatedAfter: boolean;
}): string {
  return [
    check.heldNotInTarget.length > 0
      ? `it holds ${check.heldNotInTarget.join(', ')}, not in that target`
      : '',
    check.targetNotHeld.length > 0
      ? `it does not hold ${check.targetNotHeld.join(', ')}, which that target holds`
      : '',
    check.updatedAfter ? 'it changed after that version' : '',
  ]
    .filter(Boolean)
    .join('; ');
}
