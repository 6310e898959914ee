export { openStore, type Store, type StoreOptions } from './open';
export { StoreError, type StoreErrorKind } from './errors';
export { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations';
export { applyMigrations } from './migrate';
export type { Profile, NewProfile, ProfilePatch, Environment } from './repositories/profiles';
export type { StoredStrategy, StoredHolding } from './repositories/strategies';
export type { StoredVersion, VersionOrigin, VersionUpsertOptions } from './repositories/versions';
export type { Draft, DraftRow, DraftSummary } from './repositories/drafts';
export { IN_FLIGHT_STATES, type JournalEntry, type JournalState } from './repositories/journal';
export {
  ORDER_REPORT_COLUMNS,
  type OrderReportColumn,
  type OrderReportQuery,
  type OrderReportRow,
  type OrderReportSnapshot,
} from './repositories/reports';
export type { PredictionRecord, TargetState } from './repositories/predictions';
export type {
  BookCountsRecord,
  BookFilter,
  BookOrder,
  BookOrderKeys,
  BookRowRead,
  BookRowRecord,
  RefreshFailure,
} from './repositories/book';
export type { UnexecutedRecord, UnexecutedSource } from './repositories/unexecuted';
export type { FolderHolder } from './repositories/holder';
export type {
  StoredModel,
  StoredModelRow,
  StoredRevision,
  StoredAssignment,
} from './repositories/models';
export type {
  StoredBatch,
  StoredBatchItem,
  NewBatchItem,
  ItemOutcome,
} from './repositories/batches';
