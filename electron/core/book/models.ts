import type { BookRow, SelectionModels } from '../../../shared/book/views';
import { BOOK_SYNC } from '../../../shared/models/sync';
import { followerOf } from '../models/views';
import type { Store } from '../store';

/**
 * The book's model column: for the rows of a page, the model each strategy follows and its sync
 * state, worked out as the Models screen's followers are (models/views.ts) at read time, since
 * a saved revision or an assignment changes it without touching the strategy. One query finds the
 * profile's assignments; only the rows that follow a model cost more.
 */

type BookModel = NonNullable<BookRow['model']>;

export function withModels(store: Store, profileId: string, rows: BookRow[]): BookRow[] {
  if (rows.length === 0) return rows;
  const models = modelsOf(
    store,
    profileId,
    rows.map((r) => r.strategyId),
  );
  if (models.size === 0) return rows;
  return rows.map((row) => {
    const model = models.get(row.strategyId);
    return model ? { ...row, model } : row;
  });
}

/** The model each of `strategyIds` follows and its sync state, by strategy (none: follows none). */
export function modelsOf(
  store: Store,
  profileId: string,
  strategyIds: readonly string[],
): Map<string, BookModel> {
  const models = new Map<string, BookModel>();
  if (strategyIds.length === 0) return models;
  const assigned = new Set(store.models.assignmentsOf(profileId).map((a) => a.strategyId));
  if (assigned.size === 0) return models;
  for (const strategyId of strategyIds) {
    if (!assigned.has(strategyId)) continue;
    const follower = followerOf(store, profileId, strategyId);
    if (!follower) continue;
    models.set(strategyId, {
      id: follower.modelId,
      name: follower.modelName,
      sync: BOOK_SYNC[follower.sync.state],
    });
  }
  return models;
}

/** The strategies `strategyIds` (in that order) grouped by the model revision each follows. */
export function selectionModelsOf(
  store: Store,
  profileId: string,
  strategyIds: readonly string[],
): SelectionModels {
  const groups = new Map<string, SelectionModels['models'][number]>();
  let followers = 0;
  for (const strategyId of strategyIds) {
    const follower = followerOf(store, profileId, strategyId);
    if (!follower) continue;
    followers++;
    const group = groups.get(follower.revision.id) ?? {
      modelId: follower.modelId,
      modelName: follower.modelName,
      revisionId: follower.revision.id,
      revisionNumber: follower.revision.number,
      strategyIds: [],
    };
    group.strategyIds.push(strategyId);
    groups.set(follower.revision.id, group);
  }
  const models = [...groups.values()].sort(
    (a, b) =>
      b.strategyIds.length - a.strategyIds.length ||
      (a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : 0) ||
      a.revisionNumber - b.revisionNumber,
  );
  return { strategyIds: [...strategyIds], models, following: followers };
}
