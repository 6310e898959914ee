import type { DeskEvent } from '../../../shared/contract';
import { summaryOf } from '../activity/describe';
import type { Store } from '../store';
import type { ActivityRow } from '../store/repositories/activity';

/** An activity entry as the contract carries it in a list, and its announcement. */

/** A list line: an execution shows the latest outcome linked to it. */
export function activitySummary(
  store: Store,
  row: ActivityRow,
  /** The entry it refers to, when the caller has read it already. */
  referred?: ActivityRow | null,
) {
  return summaryOf(
    row,
    row.kind === 'execution-sent' ? store.activity.latestReferringTo(row.seq) : null,
    // Read only when the entry names no strategy itself: a batch's execution refers to the
    // batch's review, whose payload lists every line.
    referred !== undefined
      ? referred
      : () => (row.refers_to === null ? null : store.activity.get(row.refers_to)),
  );
}

/** An entry was appended to the log: the event carries its list line. */
export function activityAppended(store: Store, row: ActivityRow): DeskEvent {
  return {
    type: 'activity-appended',
    profileId: row.profile_id,
    entry: activitySummary(store, row),
  };
}
