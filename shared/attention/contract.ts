import { z } from 'zod';
import { method, ok, profileRef } from '../contract-parts';
import { uuid } from '../domain/resources';
import { ATTENTION_KINDS, SCHEDULE_CADENCES } from './kinds';

/**
 * The attention queue's area of the contract (shared/contract.ts, docs/attention.md): what needs
 * the manager, price-free, each signal with its evidence; acknowledging or snoozing one; the
 * calendar schedules that make a strategy due.
 */

export const attentionKind = z.enum(ATTENTION_KINDS);

/** One signal and the facts it rests on (quantities as the service sent them, never a price). */
export const attentionSignal = z.object({
  /** The strategy and what the signal is about: unique in the profile's queue. */
  key: z.string(),
  kind: attentionKind,
  strategyId: uuid,
  strategyName: z.string(),
  /** The symbol it is about, when it is about one. */
  symbol: z.string().nullable(),
  /** The quantity (or weight) when the last rebalance ended, or as ordered; null: none. */
  before: z.string().nullable(),
  /** The quantity now, or as filled; null: none. */
  now: z.string().nullable(),
  /** The version it rests on (the last rebalance, the failed or unexecuted one), if any. */
  versionId: z.string().nullable(),
  /** The model the strategy follows (its batch can be reviewed from here), if any. */
  model: z.object({ id: uuid, name: z.string() }).nullable(),
  /** The evidence in words. */
  evidence: z.string(),
  /** The evidence as compared: a dismissal holds while this stays the same. */
  evidenceKey: z.string(),
});
export type AttentionSignal = z.infer<typeof attentionSignal>;

export const attentionQueue = z.object({
  /**
   * The first signals to act on (as many as asked for, of the kind asked for), first things
   * first (total order: kind, strategy name, id, symbol).
   */
  signals: z.array(attentionSignal),
  /** How many signals there are of the kind asked for (all kinds: the whole queue). */
  total: z.number().int().nonnegative(),
  /** How many signals of each kind the queue holds, in the queue's order of kinds. */
  counts: z.array(z.object({ kind: attentionKind, count: z.number().int().positive() })),
  /** Signals acknowledged or snoozed whose evidence has not changed since. */
  setAside: z.number().int().nonnegative(),
  /** Strategies with a snapshot of their last rebalance's end (the rest cannot show changes). */
  snapshots: z.number().int().nonnegative(),
  strategies: z.number().int().nonnegative(),
});
export type AttentionQueue = z.infer<typeof attentionQueue>;

const reason = z
  .string()
  .trim()
  .min(1, 'Say why (the activity log records the reason)')
  .max(500, 'The reason is longer than 500 characters');

export const attentionSchedule = z.object({
  id: uuid,
  strategyId: uuid.nullable(),
  tag: z.string().nullable(),
  cadence: z.enum(SCHEDULE_CADENCES),
  day: z.number().int().nullable(),
  onDate: z.string().nullable(),
  cooldownDays: z.number().int(),
});
export type AttentionSchedule = z.infer<typeof attentionSchedule>;

export const attentionContract = {
  /** The profile's queue now, computed from what the app stored (nothing read from the service). */
  queue: method(
    z
      .object({
        profileId: uuid,
        kind: attentionKind.optional(),
        /** How many of the first signals to carry (the screen asks for what it shows). */
        limit: z.number().int().min(1).max(5000).optional(),
      })
      .strict(),
    attentionQueue,
  ),
  /** Sets a signal aside (acknowledged, or snoozed until a time) with a reason, in the activity log. */
  dismiss: method(
    z
      .object({
        profileId: uuid,
        key: z.string().min(1).max(400),
        evidenceKey: z.string().max(4000),
        action: z.enum(['acknowledge', 'snooze']),
        /** Snooze only: how many days (1 to 90). */
        days: z.number().int().min(1).max(90).optional(),
        reason,
      })
      .strict(),
    ok,
  ),
  schedules: method(profileRef, z.array(attentionSchedule)),
  setSchedule: method(
    z
      .object({
        profileId: uuid,
        strategyId: uuid.optional(),
        tag: z.string().trim().min(1).max(60).optional(),
        cadence: z.enum(SCHEDULE_CADENCES),
        /** Monthly and quarterly: the day of the month, 1 to 28 (every month has it). */
        day: z.number().int().min(1).max(28).optional(),
        /** A date's schedule: YYYY-MM-DD. */
        onDate: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is written YYYY-MM-DD')
          .optional(),
        cooldownDays: z.number().int().min(0).max(366).default(0),
      })
      .strict(),
    attentionSchedule,
  ),
  removeSchedule: method(z.object({ profileId: uuid, scheduleId: uuid }).strict(), ok),
};
