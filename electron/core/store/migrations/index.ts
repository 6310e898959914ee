import type { Migration } from './types';
import initial from './001-initial';
import predictions from './002-predictions';
import statusSeen from './003-status-seen';
import activity from './004-activity';
import statusBarIndexes from './005-status-bar-indexes';
import claims from './006-claims';
import unexecutedVersions from './007-unexecuted-versions';
import failuresAcknowledged from './008-failures-acknowledged';
import book from './009-book';
import models from './010-models';
import batches from './011-batches';
import batchStopReason from './012-batch-stop-reason';
import attention from './013-attention';
import restrictions from './014-restrictions';
import teamConnections from './015-team-connections';
import activityFilters from './016-activity-filters';
import batchSuperseded from './017-batch-superseded';
import attentionMarks from './018-attention-marks';
import teamModels from './019-team-models';
import bookJournalMarks from './020-book-journal-marks';

export { APPLICATION_ID, type Migration } from './types';

/** Every migration the app knows, in order. Add a file per schema change; never edit a shipped one. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  predictions,
  statusSeen,
  activity,
  statusBarIndexes,
  claims,
  unexecutedVersions,
  failuresAcknowledged,
  book,
  models,
  batches,
  batchStopReason,
  attention,
  restrictions,
  teamConnections,
  activityFilters,
  batchSuperseded,
  attentionMarks,
  teamModels,
  bookJournalMarks,
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
