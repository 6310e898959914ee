import team from './001-team';
import activityFilters from './002-activity-filters';
import batchApprovals from './003-batch-approvals';
import batchLinesUsedTogether from './004-batch-lines-used-together';
import modelLibrary from './005-model-library';
import logPlans from './006-log-plans';
import approvalsNameTheStrategy from './007-approvals-name-the-strategy';
import logEntryInOneTrigger from './008-log-entry-in-one-trigger';
import type { TeamMigration } from './types';

export { TEAM_ROLES, MEMBER_GROUP, groupRoleOf, type TeamRole, type TeamMigration } from './types';

/** Every migration of the team store, in order. A file per change; never edit a shipped one. */
export const TEAM_MIGRATIONS: readonly TeamMigration[] = [
  team,
  activityFilters,
  batchApprovals,
  batchLinesUsedTogether,
  modelLibrary,
  logPlans,
  approvalsNameTheStrategy,
  logEntryInOneTrigger,
];

export const LATEST_TEAM_SCHEMA_VERSION = TEAM_MIGRATIONS[TEAM_MIGRATIONS.length - 1]!.version;
