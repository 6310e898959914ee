import type { DeskEvent } from '../../shared/contract';

type JournalChanged = Extract<DeskEvent, { type: 'journal-changed' }>;

/** The status bar's figures of a desk with nothing running and nothing to attend to. */
export const QUIET_FIGURES: JournalChanged['appStatus'] = {
  runningVersions: 0,
  lastSyncAt: null,
  needsAttention: 0,
  failedUnacknowledged: 0,
};

/** A `journal-changed` event as the desk announces it: nothing in flight unless given. */
export function journalChanged(
  profileId: string,
  inFlight: JournalChanged['inFlight'] = [],
): JournalChanged {
  return { type: 'journal-changed', profileId, inFlight, appStatus: QUIET_FIGURES };
}
