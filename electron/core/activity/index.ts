/** The activity log (docs/activity.md): recording, reading, checking and exporting it. */
export { ActivityChecks } from './checks';
export { canonicalJson, entryCanonical, entryHash } from '../store/repositories/activity-canonical';
export {
  recordProfileChanged,
  recordProfileCreated,
  recordProfileRemoved,
  recordStrategyRemoved,
  recordVersionDeleted,
  recordVersionEnded,
  recordVersionImported,
  type SeenBeforeDelete,
} from './record';
export { summaryOf } from './describe';
export type { ActivityRepository, ActivityRow } from '../store/repositories/activity';
