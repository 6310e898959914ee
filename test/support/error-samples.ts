import type { DeskErrorKind, DeskErrorWire } from '../../shared/errors';

/** One error of each kind as it crosses, its details of the kind's own shape (typed per kind). */
export const ERROR_SAMPLES: { [K in DeskErrorKind]: Extract<DeskErrorWire, { kind: K }> } = {
  'invalid-input': {
    kind: 'invalid-input',
    message: 'name: Enter a name',
    details: { issues: [{ path: ['name'], message: 'Enter a name' }] },
  },
  'invalid-draft': {
    kind: 'invalid-draft',
    message: 'This draft cannot be executed as it is.',
    details: { messages: ['Row 2 (AGG): the weight is empty'] },
  },
  'secret-needed-for-new-address': {
    kind: 'secret-needed-for-new-address',
    message: 'The service address changed.',
    details: { from: 'https://a.example', to: 'https://b.example' },
  },
  'execution-blocked': {
    kind: 'execution-blocked',
    message: 'This execution is accepted.',
    details: { state: 'accepted' },
  },
  'confirmation-outdated': { kind: 'confirmation-outdated', message: 'Open it again.' },
  'stale-not-acknowledged': { kind: 'stale-not-acknowledged', message: 'Acknowledge it.' },
  busy: { kind: 'busy', message: 'The same work is already under way.' },
  'executed-before': {
    kind: 'executed-before',
    message: 'Already executed.',
    details: { versionId: '11111111-1111-4111-8111-111111111111' },
  },
  'delete-not-confirmed': {
    kind: 'delete-not-confirmed',
    message: 'Nothing was deleted.',
    details: { reason: 'unread-not-acknowledged' },
  },
  'model-not-found': { kind: 'model-not-found', message: 'This model is not in the app.' },
  'approval-required': {
    kind: 'approval-required',
    message:
      'Strategy s-1 needs an approval by another member before it is sent. Nothing was sent.',
  },
  'approval-outdated': {
    kind: 'approval-outdated',
    message: 'The approval of s-1 no longer matches what would be sent. Nothing was sent.',
  },
  'team-unavailable': {
    kind: 'team-unavailable',
    message: 'The team store at db:5432/team cannot be reached (connect ECONNREFUSED).',
  },
  'team-refused': {
    kind: 'team-refused',
    message: 'bob submitted "Core" and cannot approve or reject it: another approver must.',
  },
  'invalid-model': {
    kind: 'invalid-model',
    message: 'These rows cannot be saved as a model revision as they are.',
    details: { messages: ['Weights add up to 99, above 98: cash must stay at least 2.'] },
  },
  restricted: {
    kind: 'restricted',
    message: 'Not executed: it breaks a restriction for certain on TSLA. Nothing was sent.',
    details: { violations: [{ symbol: 'TSLA', level: 'certain' }] },
  },
  internal: { kind: 'internal', message: 'Something went wrong inside the app.', details: {} },
  network: {
    kind: 'network',
    message: 'The service could not be reached.',
    details: { ambiguous: false, requestSent: false, code: 'ECONNREFUSED' },
  },
  timeout: {
    kind: 'timeout',
    message: 'The service did not answer in time.',
    details: { ambiguous: true, requestSent: true },
  },
  unauthorized: {
    kind: 'unauthorized',
    message: 'The service did not accept the access token.',
    status: 401,
    serviceMessage: 'invalid_token',
    details: { ambiguous: false, code: 'invalid_token' },
  },
  forbidden: {
    kind: 'forbidden',
    message: 'This client lacks the scope strategies:read.',
    status: 403,
    details: {
      ambiguous: false,
      missingScope: 'strategies:read',
      missingScopes: ['strategies:read'],
    },
  },
  'not-found': {
    kind: 'not-found',
    message: 'The service does not know this strategy.',
    status: 404,
    details: { ambiguous: false },
  },
  'bad-request': {
    kind: 'bad-request',
    message: 'The service rejected the request.',
    status: 400,
    details: { ambiguous: false, fields: { client_id: ['is missing'] } },
  },
  validation: {
    kind: 'validation',
    message: 'The service refused the request (status 422): too many decimals.',
    status: 422,
    details: {
      ambiguous: false,
      fields: { 'data.positions[0].weight': ['too many decimals'] },
      versionId: '22222222-2222-4222-8222-222222222222',
    },
  },
  'unknown-symbols': {
    kind: 'unknown-symbols',
    message: 'The service does not know these symbols: FOO, BAR',
    status: 422,
    serviceMessage: 'Unknown symbols: FOO, BAR',
    details: { ambiguous: false, unknownSymbols: ['FOO', 'BAR'] },
  },
  'unexecuted-version': {
    kind: 'unexecuted-version',
    message: 'An unexecuted version must be deleted first.',
    status: 422,
    details: { ambiguous: false, versionId: null },
  },
  conflict: {
    kind: 'conflict',
    message: 'A rebalance of this strategy has not ended yet.',
    status: 409,
    details: { ambiguous: false, versionId: '33333333-3333-4333-8333-333333333333' },
  },
  'liquidate-only': {
    kind: 'liquidate-only',
    message: 'This strategy is liquidate-only.',
    status: 422,
    details: { ambiguous: false },
  },
  'version-executed': {
    kind: 'version-executed',
    message: 'An executed version cannot be deleted.',
    status: 422,
    details: { ambiguous: false },
  },
  'idempotency-mismatch': {
    kind: 'idempotency-mismatch',
    message: 'This execution key was already used.',
    status: 422,
    details: { ambiguous: false },
  },
  'rate-limited': {
    kind: 'rate-limited',
    message: 'The service asks to wait 120 s.',
    status: 429,
    details: { ambiguous: false, retryAfterSeconds: 120 },
  },
  server: {
    kind: 'server',
    message: 'The service failed (status 503).',
    status: 503,
    details: { ambiguous: true },
  },
  'bad-response': {
    kind: 'bad-response',
    message: 'The service answered in a form the app does not understand: data.id is missing.',
    status: 200,
    details: {
      ambiguous: false,
      issues: ['data.id: Invalid input'],
      problem: 'data.id is missing',
    },
  },
  'invalid-client': {
    kind: 'invalid-client',
    message: 'The service refused the client id or secret.',
    status: 401,
    serviceMessage: 'Bad client',
    details: { ambiguous: false, code: 'invalid_client' },
  },
  'invalid-scope': {
    kind: 'invalid-scope',
    message: 'The service refused the requested scopes.',
    status: 400,
    details: { ambiguous: false, code: 'invalid_scope' },
  },
  'no-secret': {
    kind: 'no-secret',
    message: 'No client secret is stored for this profile.',
    details: { ambiguous: false },
  },
  closed: {
    kind: 'closed',
    message: 'The service client was closed.',
    details: { ambiguous: false },
  },
  cancelled: {
    kind: 'cancelled',
    message: 'Cancelled before the service answered.',
    details: { ambiguous: false, requestSent: false },
  },
  'store-not-sqlite': { kind: 'store-not-sqlite', message: 'Not a database file.' },
  'store-not-ours': { kind: 'store-not-ours', message: 'Another program’s file.' },
  'store-newer-schema': { kind: 'store-newer-schema', message: 'A newer version’s file.' },
  'store-migration-failed': { kind: 'store-migration-failed', message: 'Not updated.' },
  'store-damaged': { kind: 'store-damaged', message: 'Damaged.' },
  'store-read-only': { kind: 'store-read-only', message: 'Cannot be written.' },
  'disk-full': { kind: 'disk-full', message: 'The disk is full.' },
  'no-permission': { kind: 'no-permission', message: 'Not allowed to write there.' },
  'read-only': { kind: 'read-only', message: 'That place is read-only.' },
  'folder-missing': { kind: 'folder-missing', message: 'The folder does not exist any more.' },
  'file-busy': { kind: 'file-busy', message: 'The file is open in another program.' },
  'keychain-failed': { kind: 'keychain-failed', message: 'The system keychain did not answer.' },
  'host-unreachable': { kind: 'host-unreachable', message: 'The app is not running.' },
  'no-access-key': { kind: 'no-access-key', message: 'Opened without its access key.' },
  'access-key-invalid': {
    kind: 'access-key-invalid',
    message: 'The access key is no longer valid.',
  },
};

export const ALL_ERROR_SAMPLES: readonly DeskErrorWire[] = Object.values(ERROR_SAMPLES);
