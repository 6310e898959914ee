import { DeskError } from '../../../shared/errors';
import type { ModelFollower } from '../../../shared/models/views';
import { recordAssigned, recordUnassigned } from '../activity/record-models';
import type { Store } from '../store';
import type { ModelLibrary } from './library';
import { followerOf, followerView, modelChanged, type AnnounceModelChange } from './views';

/**
 * What an assignment names, checked: the model, the revision followed (pinned, or the latest:
 * one must be saved) and the profile's strategies, each once; refused in words otherwise, with
 * nothing assigned. The desk's own following and the team's (team-library.ts) check alike.
 */
export function assignable(
  store: Store,
  library: ModelLibrary,
  input: {
    profileId: string;
    modelId: string;
    strategyIds: readonly string[];
    revisionId?: string | undefined;
  },
) {
  const model = library.model(input.modelId);
  const pinned = input.revisionId ?? null;
  const revision = pinned ? library.revisionOf(pinned) : store.models.latest(model.id);
  if (!revision)
    throw new DeskError({
      kind: 'invalid-input',
      message: `“${model.name}” has no saved revision yet: save one before strategies follow it.`,
    });
  if (revision.modelId !== model.id)
    throw new DeskError({
      kind: 'invalid-input',
      message: `Revision ${revision.number} is not a revision of “${model.name}”.`,
    });
  const strategyIds = [...new Set(input.strategyIds)];
  const missing = strategyIds.filter((id) => !store.strategies.get(input.profileId, id));
  if (missing.length > 0)
    throw new DeskError({
      kind: 'not-found',
      message: `Not in this profile: ${missing.length === 1 ? 'the strategy' : 'the strategies'} ${missing.join(', ')}. Nothing was assigned.`,
    });
  return { model, revision, pinned, strategyIds };
}

/**
 * Which strategies follow which model, and whether each holds its revision's target (its sync
 * state, shared/models/sync.ts). A strategy follows at most one model; it follows the model's
 * latest revision, unless the assignment pins one (docs/models.md).
 */
export class ModelFollowing {
  constructor(
    private readonly store: Store,
    private readonly library: ModelLibrary,
    private readonly announce: AnnounceModelChange,
  ) {}

  /**
   * The strategies follow the model from now on (one following another model moves); pinned to
   * `revisionId` when given, else following the latest. Each change is an activity entry; the
   * changes are announced (`model-changed`), with the models the movers left.
   */
  assign(input: {
    profileId: string;
    modelId: string;
    strategyIds: readonly string[];
    revisionId?: string | undefined;
  }): ModelFollower[] {
    const { profileId } = input;
    const { model, revision, pinned, strategyIds } = assignable(this.store, this.library, input);
    const changes = strategyIds.flatMap((strategyId) => {
      const before = this.store.models.assignmentOf(profileId, strategyId);
      if (before && before.modelId === model.id && before.revisionId === pinned) return [];
      const previous =
        before && before.modelId !== model.id ? this.store.models.get(before.modelId) : null;
      const strategyName = this.store.strategies.get(profileId, strategyId)!.name;
      return [{ strategyId, strategyName, previous }];
    });
    recordAssigned(
      this.store,
      profileId,
      model,
      { revision, pinned: pinned !== null },
      changes,
      () =>
        this.store.models.assign(
          profileId,
          changes.map((c) => c.strategyId),
          model.id,
          pinned,
        ),
    );
    if (changes.length === 0)
      return strategyIds.map((id) => followerOf(this.store, profileId, id)!);
    const changed = modelChanged(this.store, {
      change: 'assigned',
      profileId,
      revision,
      modelIds: [model.id, ...changes.flatMap((c) => (c.previous ? [c.previous.id] : []))],
      strategies: changes.map((c) => ({ profileId, strategyId: c.strategyId })),
    });
    this.announce(changed);
    // The moved ones as announced, not judged twice (a tag's thousands at once).
    const moved = new Map(changed.strategies.map((s) => [s.strategyId, s.follows]));
    return strategyIds.map((id) => moved.get(id) ?? followerOf(this.store, profileId, id)!);
  }

  /**
   * The strategies follow no model any more (one that followed none is left as it is); announced
   * with the models they left.
   */
  unassign(input: { profileId: string; strategyIds: readonly string[] }): void {
    const { profileId } = input;
    const changes = [...new Set(input.strategyIds)].flatMap((strategyId) => {
      const before = this.store.models.assignmentOf(profileId, strategyId);
      const model = before ? this.store.models.get(before.modelId) : null;
      if (!model) return [];
      const strategyName = this.store.strategies.nameOf(profileId, strategyId) ?? '';
      return [{ strategyId, strategyName, model }];
    });
    recordUnassigned(this.store, profileId, changes, () => {
      for (const c of changes) this.store.models.unassign(profileId, c.strategyId);
    });
    if (changes.length > 0)
      this.announce(
        modelChanged(this.store, {
          change: 'unassigned',
          profileId,
          revision: null,
          modelIds: changes.map((c) => c.model.id),
          strategies: changes.map((c) => ({ profileId, strategyId: c.strategyId })),
        }),
      );
  }

  /** The profile's strategies following the model, with their sync states (by strategy name). */
  followers(modelId: string, profileId: string): ModelFollower[] {
    this.library.model(modelId);
    return this.store.models
      .followers(modelId, profileId)
      .map((a) => followerView(this.store, a))
      .sort((a, b) =>
        a.strategyName < b.strategyName
          ? -1
          : a.strategyName > b.strategyName
            ? 1
            : a.strategyId < b.strategyId
              ? -1
              : 1,
      );
  }

  /** The model a strategy follows, with its sync state; null when it follows none. */
  ofStrategy(profileId: string, strategyId: string): ModelFollower | null {
    return followerOf(this.store, profileId, strategyId);
  }
}
