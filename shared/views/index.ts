import { z } from 'zod';
import { MAX_CELL_CHARS, type TargetDoubt, type TargetPosition } from '../draft/types';
import {
  decimalString,
  holding,
  order,
  positionAction,
  timestamp,
  uuid,
  versionPosition,
  versionStatus,
} from '../domain/resources';

/**
 * What the renderer sees: views of the domain, as the contract carries them.
 * Never a secret, never a token.
 */

export const profileEnvironment = z.enum(['sandbox', 'production']);

export const profileView = z.object({
  id: uuid,
  name: z.string(),
  baseUrl: z.string(),
  clientId: z.string(),
  environment: profileEnvironment,
  /** Where the secret lives: the OS keychain, or memory for this session only. */
  secretStorage: z.enum(['keychain', 'session']),
  hasSecret: z.boolean(),
  /** Scopes granted by the last token; null until the first connection. */
  grantedScopes: z.array(z.string()).nullable(),
  createdAt: timestamp,
});
export type ProfileView = z.infer<typeof profileView>;

export const targetPosition = z.object({ symbol: z.string(), weight: decimalString });
// The one TargetPosition type (shared/draft/types.ts); the schema must describe exactly it.
export type { TargetPosition } from '../draft/types';
targetPosition satisfies z.ZodType<TargetPosition>;

/** The current target: the latest executed version known to the app. */
export const currentTarget = z.object({
  versionId: uuid,
  executedAt: timestamp.nullable(),
  status: versionStatus.nullable(),
  cashWeight: decimalString,
  positions: z.array(targetPosition),
  /** Where the app learned of this version: it executed it, or imported it by id. */
  origin: z.enum(['created', 'imported']).optional(),
});
export type CurrentTarget = z.infer<typeof currentTarget>;

/** Does what the strategy holds fit the known target? (See shared/draft/target-check.ts.) */
export const targetCheckView = z.object({
  heldNotInTarget: z.array(z.string()),
  targetNotHeld: z.array(z.string()),
  updatedAfter: z.boolean(),
  fits: z.boolean(),
});
export type TargetCheckView = z.infer<typeof targetCheckView>;

export const strategyListItem = z.object({
  id: uuid,
  name: z.string(),
  isLiquidateOnly: z.boolean(),
  /** A version of this strategy is still rebalancing. */
  running: z.boolean(),
  /** An execution of this strategy has an unknown outcome. */
  needsAttention: z.boolean(),
  /** Its failed or partly failed versions not yet acknowledged (they need attention too). */
  failedVersionIds: z.array(uuid).optional(),
  syncedAt: timestamp,
});
export type StrategyListItem = z.infer<typeof strategyListItem>;

/** An unexecuted version the app knows to stand in the way of the strategy's next execution. */
export const unexecutedVersionKnown = z.object({
  versionId: uuid,
  /** Imported here, named by the service when it refused an execution, or read before a delete. */
  learnedFrom: z.enum(['imported', 'named', 'read']),
  learnedAt: timestamp,
  scheduledFor: timestamp.nullable(),
  insertedAt: timestamp.nullable(),
  /** Null: only named by the service, never read. */
  readAt: timestamp.nullable(),
});
export type UnexecutedVersionKnown = z.infer<typeof unexecutedVersionKnown>;

export const strategyView = z.object({
  profileId: uuid,
  id: uuid,
  name: z.string(),
  description: z.string(),
  feePercent: decimalString,
  isLiquidateOnly: z.boolean(),
  liquidateOnlyReason: z.string().nullable(),
  holdings: z.array(holding),
  currentTarget: currentTarget.nullable(),
  /** The cached holdings against the known target; null when no target is known here. */
  targetCheck: targetCheckView.nullable().optional(),
  /** The service's last change of the strategy, as last read. */
  updatedAt: timestamp.optional(),
  runningVersionId: uuid.nullable(),
  /** Unexecuted versions known to be in the way of executing (oldest knowledge first). */
  unexecutedVersions: z.array(unexecutedVersionKnown).optional(),
  syncedAt: timestamp,
});
export type StrategyView = z.infer<typeof strategyView>;

export const draftRow = z.object({
  symbol: z.string().max(MAX_CELL_CHARS),
  weight: z.string().max(MAX_CELL_CHARS),
  locked: z.boolean(),
});
export type DraftRow = z.infer<typeof draftRow>;

export const draftStart = z.enum(['empty', 'target', 'holdings']);
export type DraftStart = z.infer<typeof draftStart>;

export const draftSummary = z.object({
  id: uuid,
  strategyId: uuid,
  name: z.string(),
  rowCount: z.number().int().nonnegative(),
  valid: z.boolean(),
  updatedAt: timestamp,
  /** The version this draft last became when executed. */
  executedVersionId: uuid.nullable().optional(),
});
export type DraftSummary = z.infer<typeof draftSummary>;

export const draftView = z.object({
  id: uuid,
  profileId: uuid,
  strategyId: uuid,
  name: z.string(),
  rows: z.array(draftRow),
  updatedAt: timestamp,
  executedVersionId: uuid.nullable().optional(),
});
export type DraftView = z.infer<typeof draftView>;

export const versionSummary = z.object({
  id: uuid,
  strategyId: uuid,
  status: versionStatus.nullable(),
  cashWeight: decimalString,
  oldCashWeight: decimalString,
  scheduledFor: timestamp.nullable(),
  executedAt: timestamp.nullable(),
  insertedAt: timestamp,
  origin: z.enum(['created', 'imported']),
  syncedAt: timestamp,
});
export type VersionSummary = z.infer<typeof versionSummary>;

/** Why following a version is not going well: the last poll's failure, and what it waits for. */
export const trackingProblem = z.object({
  message: z.string(),
  at: timestamp,
  waitingFor: z.enum(['connection', 'credentials']).nullable(),
  /** True once tracking stopped for good; "Check now" starts it again. */
  stopped: z.boolean(),
});
export type TrackingProblem = z.infer<typeof trackingProblem>;

/** When the app first saw the version in a status (stored, so it survives a restart). */
export const statusSeen = z.object({ status: versionStatus, firstSeenAt: timestamp });

export const versionDetail = versionSummary.extend({
  orders: z.array(order),
  positions: z.array(versionPosition),
  tracking: z.boolean(),
  trackingProblem: trackingProblem.nullable(),
  statusSeen: z.array(statusSeen),
  /** When the manager acknowledged this version's failure (null: not yet, or it did not fail). */
  failureAcknowledgedAt: timestamp.nullable().optional(),
});
export type VersionDetail = z.infer<typeof versionDetail>;

export const journalEntryView = z.object({
  id: uuid,
  strategyId: uuid,
  draftId: uuid.nullable(),
  state: z.enum(['pending', 'accepted', 'rejected', 'unknown', 'dismissed']),
  versionId: uuid.nullable(),
  error: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type JournalEntryView = z.infer<typeof journalEntryView>;

export const reportSelection = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('version'), strategyId: uuid, versionId: uuid }),
  z.object({ kind: z.literal('strategy'), strategyId: uuid }),
  z.object({ kind: z.literal('range'), from: timestamp, to: timestamp }),
]);
export type ReportSelection = z.infer<typeof reportSelection>;

// Exports' id and result are contract parts (every area with an export uses them).
export { exportIdField, exportResult, type ExportResult } from '../contract-parts';

export const appStatus = z.object({
  online: z.boolean(),
  /** The newest read of any strategy, of any profile. */
  lastSyncAt: timestamp.nullable(),
  /** The oldest: the strategy read longest ago, of any profile (unread ones keep theirs). */
  oldestSyncAt: timestamp.nullable().optional(),
  runningVersions: z.number().int().nonnegative(),
  /** Executions of unknown outcome plus failed rebalances not yet acknowledged, all profiles. */
  needsAttention: z.number().int().nonnegative(),
  /** Of those, the failed or partly failed rebalances not yet acknowledged. */
  failedUnacknowledged: z.number().int().nonnegative().optional(),
  secretStorage: z.enum(['keychain', 'session']),
  /** Why the secret is kept for this session only, when it is. */
  secretStorageReason: z.string().nullable(),
  /** The service answered but refused a profile's credentials: a profile problem, not "Online". */
  credentialsProblem: z.string().nullable().optional(),
});
export type AppStatus = z.infer<typeof appStatus>;

/** Errors cross the boundary as data; the bridge rethrows them as DeskError (shared/errors/index.ts). */
export { deskErrorWire } from '../errors/wire';

export {
  DESK_ERROR_KINDS,
  DeskError,
  deskError,
  isKind,
  type DeskErrorDetailsByKind,
  type DeskErrorKind,
  type DeskErrorWire,
} from '../errors';

/** Why the target known here may not be the service's (shared/draft/types.ts, TargetDoubt). */
export const targetDoubt = z.enum(['unknown', 'stale', 'unconfirmed']);
targetDoubt.options satisfies readonly TargetDoubt[];

/** A predicted action, or 'uncertain' where the target is in doubt. */
export const rowAction = z.union([positionAction, z.literal('uncertain')]);

/** One position of a confirmation: what the request sends and what the app predicts. */
export const predictedPositionView = z.object({
  symbol: z.string(),
  weight: decimalString,
  /** The known target's weight; only the last known one when `doubt` is set; null: none known. */
  oldWeight: decimalString.nullable(),
  action: rowAction,
  /** Why the action is uncertain; null when it is predicted. */
  doubt: targetDoubt.nullable(),
  heldQuantity: decimalString,
  sellsAll: z.boolean(),
  heldNotInTarget: z.boolean(),
  source: z.enum(['draft', 'target', 'held']),
  effect: z.enum(['add', 'change', 'remove', 'sell-held', 'unchanged', 'uncertain']),
});
export type PredictedPositionView = z.infer<typeof predictedPositionView>;

/** Where the current target comes from, as the confirmation states it. */
export const targetSourceView = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('known'),
    versionId: uuid,
    executedAt: timestamp.nullable(),
    status: versionStatus.nullable(),
    origin: z.enum(['created', 'imported']),
  }),
  z.object({ kind: z.literal('unknown') }),
]);
export type TargetSourceView = z.infer<typeof targetSourceView>;

/** Everything the Execute confirmation shows, built from a fresh read of the strategy. */
export const executePreview = z.object({
  /** Names this exact request: execute refuses a different one (the draft or strategy changed). */
  planKey: z.string(),
  profile: z.object({
    name: z.string(),
    environment: profileEnvironment,
    baseUrl: z.string(),
  }),
  strategy: strategyView,
  target: targetSourceView,
  /** Null when no target is known here. */
  check: targetCheckView.nullable(),
  /** The service did not know the known target's version when asked: the stored copy is shown. */
  targetUnconfirmed: z.boolean(),
  /**
   * Why the target may not be the one the service acts on ('unknown', or 'stale' and/or
   * 'unconfirmed'); empty when it is taken as the service's. With any, no action is predicted.
   */
  doubts: z.array(targetDoubt),
  /** With a doubt: held symbols the known target lacks (all held when none is known). */
  possiblyTargeted: z.array(z.string()),
  /** "Execute rebalance" waits for the manager's acknowledgement; the desk refuses without it. */
  needsAcknowledgement: z.boolean(),
  positions: z.array(predictedPositionView),
  /** Target cash weight before (the last known one with a doubt), null when none is known. */
  oldCash: decimalString.nullable(),
  newCash: decimalString,
  changesNothing: z.boolean(),
  /** The version this draft became the last time it was executed. */
  earlierVersionId: uuid.nullable(),
});
export type ExecutePreview = z.infer<typeof executePreview>;

/** Where the service's answer differed from the prediction, per symbol. */
export const predictionDifferenceView = z.object({
  symbol: z.string(),
  predicted: z
    .object({ action: rowAction.nullable(), oldWeight: decimalString.nullable() })
    .nullable(),
  service: z
    .object({ action: positionAction, oldWeight: decimalString, weight: decimalString })
    .nullable(),
  /** On a target in doubt: what the confirmation warned of, not a surprise. */
  expected: z.boolean(),
});

export const predictionOutcomeView = z.object({
  versionId: uuid,
  targetState: z.enum(['known', 'unknown', 'stale']),
  /** The prediction was made on a target in doubt (unknown, stale or unconfirmed): no action was predicted. */
  uncertain: z.boolean(),
  knownVersionId: uuid.nullable(),
  differences: z.array(predictionDifferenceView),
  comparedAt: timestamp,
});
export type PredictionOutcomeView = z.infer<typeof predictionOutcomeView>;
