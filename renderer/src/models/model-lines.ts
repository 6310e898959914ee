import type { DeskEventOf } from '../../../shared/contract';
import type { ModelFollower, ModelSummary } from '../../../shared/models/views';

/** The strategies a model change moved, each as it follows now (`model-changed`). */
export type ModelMoves = DeskEventOf<'model-changed'>['strategies'];

const byName = (a: { name: string; id: string }, b: { name: string; id: string }) => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/**
 * The model list with these lines in place of those held (`add`: lines not held join it), in the
 * desk's order (by name, case aside, then id). `countsInProfile`: false when the lines counted
 * the followers of another profile, or none: the held count stays.
 */
export function withLines(
  list: readonly ModelSummary[],
  lines: readonly ModelSummary[],
  options: { add: boolean; countsInProfile: boolean },
): ModelSummary[] {
  const byId = new Map(lines.map((l) => [l.id, l]));
  const next = list.map((held) => {
    const line = byId.get(held.id);
    if (!line) return held;
    byId.delete(held.id);
    return options.countsInProfile
      ? line
      : { ...line, followersInProfile: held.followersInProfile };
  });
  if (options.add) next.push(...byId.values());
  return next.sort(byName);
}

/**
 * A model's followers in a profile after a change: those moved leave, and join again when they
 * follow this model now; by strategy name, then id (as the desk gives them).
 */
export function withFollowers(
  followers: readonly ModelFollower[],
  moves: ModelMoves,
  of: { modelId: string; profileId: string },
): ModelFollower[] {
  const moved = moves.filter((m) => m.profileId === of.profileId);
  if (moved.length === 0) return [...followers];
  const ids = new Set(moved.map((m) => m.strategyId));
  const joined = moved.flatMap((m) => (m.follows?.modelId === of.modelId ? [m.follows] : []));
  return [...followers.filter((f) => !ids.has(f.strategyId)), ...joined].sort((a, b) =>
    a.strategyName !== b.strategyName
      ? a.strategyName < b.strategyName
        ? -1
        : 1
      : a.strategyId < b.strategyId
        ? -1
        : a.strategyId > b.strategyId
          ? 1
          : 0,
  );
}
