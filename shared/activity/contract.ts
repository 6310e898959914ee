import { z } from 'zod';
import { method, none } from '../contract-parts';
import { uuid } from '../domain/resources';
import { exportIdField, exportResult } from '../views';
import {
  activityCheck,
  activityEntryDetail,
  activityEntrySummary,
  activityFilter,
  activityPage,
  removedProfileLog,
} from './views';

/** The append-only, hash-chained record of every action that reached the service. */
export const activityContract = {
  /** A window of the filtered log, newest first (the view asks for the rows it shows). */
  list: method(
    activityFilter
      .extend({
        offset: z.number().int().nonnegative(),
        limit: z.number().int().positive().max(500),
      })
      .strict(),
    activityPage,
  ),
  get: method(z.object({ seq: z.number().int().positive() }).strict(), activityEntryDetail),
  /** Walks every chain again now (the app also does at start). */
  verify: method(none, activityCheck),
  /** The last check's result, without walking again. */
  lastCheck: method(none, activityCheck.nullable()),
  /** The logs of profiles removed from the app, most recently written first (read by profileId). */
  removedProfiles: method(none, z.array(removedProfileLog)),
  /** Writes the filtered log as CSV or as JSON Lines with the hashes; the host chooses where. */
  export: method(
    z
      .object({ filter: activityFilter, format: z.enum(['csv', 'jsonl']), ...exportIdField })
      .strict(),
    exportResult.nullable(),
  ),
};

export const activityEvents = [
  /** An entry was appended to a profile's activity log (the view shows it without asking twice). */
  z.object({
    type: z.literal('activity-appended'),
    profileId: uuid,
    entry: activityEntrySummary,
  }),
] as const;
