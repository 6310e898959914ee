import { activityKindsFor, type ActivityKind } from '../../../shared/activity/kinds';
import type { ActivityFilter } from '../../../shared/activity/views';

export type FilterProblem = { field: 'kinds' | 'from' | 'to'; error: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filter as typed, checked: the list's filter, or what is wrong with it. */
export function readFilter(input: {
  profileId: string;
  strategyId?: string | undefined;
  kinds: readonly ActivityKind[];
  from: string;
  to: string;
}): { ok: true; filter: ActivityFilter } | { ok: false; problem: FilterProblem } {
  const { profileId, strategyId, kinds, from, to } = input;
  if (kinds.length === 0)
    return { ok: false, problem: { field: 'kinds', error: 'Choose at least one kind.' } };
  if (from !== '' && !DAY.test(from))
    return { ok: false, problem: { field: 'from', error: 'This is not a day (YYYY-MM-DD).' } };
  if (to !== '' && !DAY.test(to))
    return { ok: false, problem: { field: 'to', error: 'This is not a day (YYYY-MM-DD).' } };
  if (from !== '' && to !== '' && from > to)
    return {
      ok: false,
      problem: { field: 'to', error: 'The last day comes before the first day.' },
    };
  const filter: ActivityFilter = { profileId };
  if (strategyId) filter.strategyId = strategyId;
  // Every kind the view can hold is no filter at all; kept in the log's own order either way.
  const available = activityKindsFor(strategyId);
  if (available.some((k) => !kinds.includes(k)))
    filter.kinds = available.filter((k) => kinds.includes(k));
  if (from !== '') filter.from = from;
  if (to !== '') filter.to = to;
  return { ok: true, filter };
}
