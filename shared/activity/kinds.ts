/**
 * What the activity log records: every action that reached the service, and what came of it.
 * Plain values (no zod), so the renderer may use them.
 */
export const ACTIVITY_KINDS = [
  'profile-created',
  'profile-changed',
  'profile-removed',
  'strategy-added',
  'strategy-removed',
  'version-imported',
  'execution-sent',
  'execution-answered',
  'execution-retried',
  'execution-dismissed',
  'version-deleted',
  'version-ended',
  'model-revision-saved',
  'model-assigned',
  'model-unassigned',
  'batch-reviewed',
  'batch-ended',
  'attention-set-aside',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The kinds a strategy's own log can hold: a profile's entries name no strategy. */
export const STRATEGY_ACTIVITY_KINDS: readonly ActivityKind[] = ACTIVITY_KINDS.filter(
  (kind) => !kind.startsWith('profile-'),
);

/** The kinds a view can hold: a strategy's, or every kind for the whole profile. */
export const activityKindsFor = (strategyId?: string): readonly ActivityKind[] =>
  strategyId ? STRATEGY_ACTIVITY_KINDS : ACTIVITY_KINDS;

/** How the Activity view and the CSV export name each kind. */
export const ACTIVITY_KIND_LABELS: Record<ActivityKind, string> = {
  'profile-created': 'Profile created',
  'profile-changed': 'Profile changed',
  'profile-removed': 'Profile removed',
  'strategy-added': 'Strategy added',
  'strategy-removed': 'Strategy removed',
  'version-imported': 'Version imported',
  'execution-sent': 'Execution sent',
  'execution-answered': 'Execution answered',
  'execution-retried': 'Execution retried',
  'execution-dismissed': 'Execution dismissed',
  'version-deleted': 'Version deleted',
  'version-ended': 'Rebalance ended',
  'model-revision-saved': 'Model revision saved',
  'model-assigned': 'Model assigned',
  'model-unassigned': 'Model unassigned',
  'batch-reviewed': 'Batch reviewed',
  'batch-ended': 'Batch ended',
  'attention-set-aside': 'Signal set aside',
};

/** A kind's label; an edited file may hold a kind the app never writes, named as it is. */
export const activityKindLabel = (kind: string): string =>
  (ACTIVITY_KIND_LABELS as Record<string, string>)[kind] ?? `Unknown kind “${kind}”`;

/** The hash the first entry of a profile's chain links to. */
export const CHAIN_START = '0'.repeat(64);
