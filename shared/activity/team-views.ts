import { z } from 'zod';
import { uuid } from '../domain/resources';
import { activityDay } from './views';

/**
 * The team's activity log (docs/team.md) as a desk reads it: one chain for the whole team in its
 * PostgreSQL store, each entry with the member who wrote it and their desk. Filtered by day,
 * kind, member or strategy, as the desk's own log is.
 */

export const teamActivityFilter = z
  .object({
    /** The profile whose team is read. */
    profileId: uuid,
    kinds: z
      .array(z.string().regex(/^[a-z][a-z.-]*$/, 'is a kind of the team log, as approval.approved'))
      .max(50)
      .optional(),
    /** A member's login. */
    member: z.string().min(1).max(63).optional(),
    strategyId: z.string().min(1).max(200).optional(),
    /** Inclusive days, UTC. */
    from: activityDay.optional(),
    to: activityDay.optional(),
  })
  .strict();
export type TeamActivityFilter = z.infer<typeof teamActivityFilter>;

export const teamActivityEntry = z.object({
  /** The entry's place in the team's chain (newest is highest): the view's total order. */
  seq: z.number().int(),
  at: z.string(),
  /** The member's PostgreSQL login: who was connected when it was written. */
  member: z.string(),
  desk: z.string(),
  kind: z.string(),
  strategyId: z.string().nullable(),
  /** Its payload, canonical JSON text. */
  payload: z.string(),
});
export type TeamActivityEntry = z.infer<typeof teamActivityEntry>;

export const teamActivityPage = z.object({
  total: z.number().int().nonnegative(),
  /** Newest first, from `offset`. */
  entries: z.array(teamActivityEntry),
});
export type TeamActivityPage = z.infer<typeof teamActivityPage>;
