import { DeskError } from '../../../shared/errors';
import { TERMINAL_VERSION_STATUSES } from '../../../shared/domain/constants';
import { syncStateOf, type FailedRebalance } from '../../../shared/models/sync';
import type { ModelFollower } from '../../../shared/models/views';
import { recordAssigned, recordUnassigned } from '../activity/record-models';
import type { Store, StoredAssignment, StoredVersion } from '../store';
import { knownTargetWithCheck } from '../strategies/targets';
import type { ModelLibrary } from './library';
import { revisionView } from './views';

/**
 * Which strategies follow which model, and whether each holds its revision's target (its sync
 * state, shared/models/sync.ts). A strategy follows at most one model; it follows the model's
 * latest revision, unless the assignment pins one (docs/models.md).
 */
export class ModelFollowing {
  constructor(
    private readonly store: Store,
    private readonly library: ModelLibrary,
  ) {}

  /**
   * The strategies follow the model from now on (one following another model moves); pinned to
   * `revisionId` when given, else following the latest. Each change is an activity entry.
   */
  assign(input: {
    profileId: string;
    modelId: string;
    strategyIds: readonly string[];
    revisionId?: string | undefined;
  }): ModelFollower[] {
    const { profileId } = input;
    const model = this.library.model(input.modelId);
    const pinned = input.revisionId ?? null;
    const revision = pinned ? this.library.revisionOf(pinned) : this.store.models.latest(model.id);
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
    const missing = strategyIds.filter((id) => !this.store.strategies.get(profileId, id));
    if (missing.length > 0)
      throw new DeskError({
        kind: 'not-found',
        message: `Not in this profile: ${missing.length === 1 ? 'the strategy' : 'the strategies'} ${missing.join(', ')}. Nothing was assigned.`,
      });
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
    return strategyIds.map((id) => this.follower(this.store.models.assignmentOf(profileId, id)!));
  }

  /** The strategies follow no model any more (one that followed none is left as it is). */
  unassign(input: { profileId: string; strategyIds: readonly string[] }): void {
    const { profileId } = input;
    const changes = [...new Set(input.strategyIds)].flatMap((strategyId) => {
      const before = this.store.models.assignmentOf(profileId, strategyId);
      const model = before ? this.store.models.get(before.modelId) : null;
      if (!model) return [];
      const strategyName = this.store.strategies.get(profileId, strategyId)?.name ?? '';
      return [{ strategyId, strategyName, model }];
    });
    recordUnassigned(this.store, profileId, changes, () => {
      for (const c of changes) this.store.models.unassign(profileId, c.strategyId);
    });
  }

  /** The profile's strategies following the model, with their sync states (by strategy name). */
  followers(modelId: string, profileId: string): ModelFollower[] {
    this.library.model(modelId);
    return this.store.models
      .followers(modelId, profileId)
      .map((a) => this.follower(a))
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
    const assignment = this.store.models.assignmentOf(profileId, strategyId);
    return assignment ? this.follower(assignment) : null;
  }

  private follower(a: StoredAssignment): ModelFollower {
    const model = this.library.model(a.modelId);
    const revision = a.revisionId
      ? this.library.revisionOf(a.revisionId)
      : this.store.models.latest(a.modelId)!;
    const stored = this.store.strategies.get(a.profileId, a.strategyId)!;
    const holdings = (stored.positions ?? []).map((h) => ({
      symbol: h.symbol,
      quantity: h.quantity,
    }));
    const { known, target, check } = knownTargetWithCheck(
      this.store,
      a.profileId,
      stored,
      holdings,
    );
    return {
      profileId: a.profileId,
      strategyId: a.strategyId,
      strategyName: stored.name,
      modelId: model.id,
      modelName: model.name,
      revision: revisionView(revision),
      pinned: a.revisionId !== null,
      assignedAt: a.assignedAt,
      targetVersionId: target?.versionId ?? null,
      sync: syncStateOf(this.store.models.rows(revision.id), target, check, failedRebalance(known)),
    };
  }
}

/**
 * The known target's rebalance when it ended FAILED or with FAILED orders (IGNORED ones are the
 * service's routine minimum, not a failure): the strategy does not hold that target.
 */
function failedRebalance(known: StoredVersion | null): FailedRebalance | null {
  if (!known?.status || !TERMINAL_VERSION_STATUSES.has(known.status)) return null;
  const failed = (known.orders ?? []).filter((o) => o.status === 'FAILED');
  if (known.status !== 'FAILED' && failed.length === 0) return null;
  return { versionId: known.id, failedSymbols: [...new Set(failed.map((o) => o.symbol))].sort() };
}
