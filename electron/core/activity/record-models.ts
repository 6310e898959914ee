import type { Store, StoredModel, StoredModelRow, StoredRevision } from '../store';

/**
 * The model library's entries (docs/models.md). Models are app-wide, the log is per profile: a
 * saved revision is written to the log of the profile the manager was working in; an assignment
 * to the log of the strategy's profile, one entry per strategy, in the transaction that changes it.
 */

const profileNameOf = (store: Store, profileId: string) =>
  store.profiles.get(profileId)?.name ?? '';

/** A revision was saved: written with its entry (when a profile is named) in one transaction. */
export function recordRevisionSaved(
  store: Store,
  profileId: string | null,
  model: StoredModel,
  save: () => { revision: StoredRevision; rows: readonly StoredModelRow[] },
): StoredRevision {
  return store.activity.record((append) => {
    const { revision, rows } = save();
    if (profileId !== null && store.profiles.get(profileId))
      append({
        profileId,
        kind: 'model-revision-saved',
        payload: {
          profileName: profileNameOf(store, profileId),
          modelId: model.id,
          modelName: model.name,
          revisionId: revision.id,
          revisionNumber: revision.number,
          note: revision.note,
          hash: revision.hash,
          total: revision.total,
          rows: rows.map((r) => ({ symbol: r.symbol, weight: r.weight })),
        },
      });
    return revision;
  });
}

export interface AssignmentChange {
  strategyId: string;
  strategyName: string;
  /** The model it followed before, if another. */
  previous: StoredModel | null;
}

/** Strategies now follow the model (at `revision`, pinned or the latest): one entry each. */
export function recordAssigned(
  store: Store,
  profileId: string,
  model: StoredModel,
  followed: { revision: StoredRevision; pinned: boolean },
  changes: readonly AssignmentChange[],
  assign: () => void,
): void {
  store.activity.record((append) => {
    assign();
    const profileName = profileNameOf(store, profileId);
    for (const change of changes)
      append({
        profileId,
        kind: 'model-assigned',
        strategyId: change.strategyId,
        payload: {
          profileName,
          strategyName: change.strategyName,
          modelId: model.id,
          modelName: model.name,
          revisionId: followed.revision.id,
          revisionNumber: followed.revision.number,
          hash: followed.revision.hash,
          pinned: followed.pinned,
          ...(change.previous && {
            previousModelId: change.previous.id,
            previousModelName: change.previous.name,
          }),
        },
      });
  });
}

/** Strategies no longer follow their model: one entry each, for those that followed one. */
export function recordUnassigned(
  store: Store,
  profileId: string,
  changes: readonly { strategyId: string; strategyName: string; model: StoredModel }[],
  unassign: () => void,
): void {
  store.activity.record((append) => {
    unassign();
    const profileName = profileNameOf(store, profileId);
    for (const change of changes)
      append({
        profileId,
        kind: 'model-unassigned',
        strategyId: change.strategyId,
        payload: {
          profileName,
          strategyName: change.strategyName,
          modelId: change.model.id,
          modelName: change.model.name,
        },
      });
  });
}
