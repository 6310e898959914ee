import type { SelectionModels } from '../../../shared/book/views';
import { followerOf } from '../models/views';
import type { Store } from '../store';

/**
 * Which models a selection of the book's strategies follows (what "Review with its model…" opens).
 * The rows' own model column is the queries' (queries.ts `modelsOf`).
 */

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
