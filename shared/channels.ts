import type { Area, Contract, MethodName } from './contract';

/**
 * The contract's method names per area, as plain data: what a bridge needs to
 * build its methods without bundling the zod schemas. The compiler checks
 * that this table names exactly the contract's methods, no more, no fewer.
 */
export const CONTRACT_METHODS = {
  profiles: ['list', 'create', 'update', 'remove', 'testConnection', 'check', 'useSandbox'],
  strategies: ['list', 'add', 'get', 'refresh', 'cancelRefresh', 'remove'],
  drafts: ['list', 'create', 'get', 'saveRows', 'rename', 'remove'],
  versions: [
    'list',
    'get',
    'import',
    'execute',
    'retryExecution',
    'dismissExecution',
    'journal',
    'delete',
    'checkNow',
    'acknowledgeFailure',
    'prepareExecute',
    'prediction',
    'prepareDelete',
  ],
  reports: ['exportOrders'],
  activity: ['list', 'get', 'verify', 'lastCheck', 'removedProfiles', 'export'],
  book: [
    'summary',
    'rows',
    'changeTags',
    'selectionModels',
    'refresh',
    'cancelRefresh',
    'addMany',
    'cancelAdd',
    'addOutcomes',
    'copyOutcomes',
    'exposure',
    'exportStrategies',
    'exportHoldings',
    'settings',
    'saveSettings',
  ],
  models: [
    'list',
    'get',
    'create',
    'update',
    'copyToTeam',
    'saveRevision',
    'revision',
    'compare',
    'importCsv',
    'exportCsv',
    'assign',
    'unassign',
    'followers',
    'ofStrategy',
  ],
  batches: [
    'review',
    'get',
    'list',
    'preview',
    'execute',
    'cancel',
    'exportOrders',
    'exportSummary',
  ],
  attention: ['queue', 'dismiss', 'schedules', 'setSchedule', 'removeSchedule'],
  restrictions: [
    'list',
    'add',
    'end',
    'inForce',
    'checkDraft',
    'exportCsv',
    'importCsv',
    'findings',
  ],
  team: [
    'get',
    'join',
    'leave',
    'members',
    'submissions',
    'submission',
    'submit',
    'decide',
    'activity',
    'submitBatch',
  ],
  app: ['status', 'firstScreen'],
} as const satisfies { [A in Area]: readonly MethodName<A>[] };

type Listed = { [A in Area]: (typeof CONTRACT_METHODS)[A][number] };
type Unlisted = { [A in Area]: Exclude<keyof Contract[A], Listed[A]> }[Area];
/** Fails to compile when a method of the contract is missing from the table. */
const complete: [Unlisted] extends [never] ? true : Unlisted = true;
void complete;
