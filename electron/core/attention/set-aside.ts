import { randomUUID } from 'node:crypto';
import { ATTENTION_KIND_TEXT } from '../../../shared/attention/kinds';
import type { AttentionSchedule } from '../../../shared/attention/contract';
import { DeskError } from '../../../shared/errors';
import { normalizeTag } from '../../../shared/book/flags';
import type { Store } from '../store';
import type { ScheduleRecord } from '../store/repositories/attention';
import { attentionQueue, type SignalSource } from './queue';

/**
 * Acknowledging or snoozing a signal, with the manager's reason: recorded in the activity log
 * (the one append, in the same transaction as the dismissal). It holds while the signal's
 * evidence is the one set aside: a change of it brings the signal back.
 */
export function setSignalAside(
  store: Store,
  sources: readonly SignalSource[],
  input: {
    profileId: string;
    key: string;
    evidenceKey: string;
    action: 'acknowledge' | 'snooze';
    days?: number | undefined;
    reason: string;
  },
  now: string,
): void {
  const { profileId } = input;
  if (!store.profiles.get(profileId)) throw notFound('This profile');
  const reason = input.reason.trim();
  if (reason.length === 0 || reason.length > 500)
    throw new DeskError({
      kind: 'invalid-input',
      message: 'Say why in 1 to 500 characters: the activity log records the reason.',
    });
  if (input.action === 'snooze' && (input.days === undefined || input.days < 1 || input.days > 90))
    throw new DeskError({
      kind: 'invalid-input',
      message: 'Say for how many days to snooze the signal (1 to 90).',
    });
  // The signal as the queue shows it now: one whose evidence moved meanwhile is not set aside.
  const signal = attentionQueue(store, sources, profileId, now, { limit: Infinity }).signals.find(
    (s) => s.key === input.key,
  );
  if (!signal)
    throw new DeskError({
      kind: 'not-found',
      message:
        'This signal is no longer in the queue (its evidence changed or it was set aside): look at the queue again.',
    });
  if (signal.evidenceKey !== input.evidenceKey)
    throw new DeskError({
      kind: 'confirmation-outdated',
      message: 'The evidence of this signal changed since it was shown: look at it again first.',
    });
  const until =
    input.action === 'snooze'
      ? new Date(Date.parse(now) + input.days! * 86_400_000).toISOString()
      : null;
  const action = input.action === 'snooze' ? 'snoozed' : 'acknowledged';
  const signalKey = signal.key.slice(signal.strategyId.length + 1);
  store.activity.record((append) => {
    store.attention.dismiss({
      profileId,
      strategyId: signal.strategyId,
      key: signalKey,
      evidence: signal.evidenceKey,
      action,
      until,
      reason,
      at: now,
    });
    append({
      profileId,
      kind: 'attention-set-aside',
      strategyId: signal.strategyId,
      versionId: signal.versionId,
      payload: {
        profileName: store.profiles.get(profileId)?.name ?? '',
        strategyName: signal.strategyName,
        signal: signal.kind,
        signalLabel: ATTENTION_KIND_TEXT[signal.kind].label,
        symbol: signal.symbol,
        evidence: signal.evidence,
        action,
        until,
        reason,
      },
    });
  });
}

const notFound = (what: string) =>
  new DeskError({ kind: 'not-found', message: `${what} is not in the app.` });

export const scheduleView = (r: ScheduleRecord): AttentionSchedule => ({
  id: r.id,
  strategyId: r.strategy_id,
  tag: r.tag,
  cadence: r.cadence,
  day: r.day,
  onDate: r.on_date,
  cooldownDays: r.cooldown_days,
});

/** A calendar schedule for one strategy or for every strategy with a tag. */
export function addSchedule(
  store: Store,
  input: {
    profileId: string;
    strategyId?: string | undefined;
    tag?: string | undefined;
    cadence: 'monthly' | 'quarterly' | 'date';
    day?: number | undefined;
    onDate?: string | undefined;
    cooldownDays: number;
  },
  now: string,
): AttentionSchedule {
  const { profileId } = input;
  if (!store.profiles.get(profileId)) throw notFound('This profile');
  const invalid = (message: string) => new DeskError({ kind: 'invalid-input', message });
  if ((input.strategyId === undefined) === (input.tag === undefined))
    throw invalid('A schedule is for one strategy or for one tag: give one of them.');
  if (input.strategyId !== undefined && !store.strategies.has(profileId, input.strategyId))
    throw notFound('This strategy');
  const tag = input.tag === undefined ? null : normalizeTag(input.tag);
  if (input.tag !== undefined && tag === null)
    throw invalid('A tag is 1 to 60 characters, without control characters.');
  if (input.cadence === 'date') {
    if (input.onDate === undefined || input.day !== undefined)
      throw invalid('A schedule on a date takes the date (YYYY-MM-DD) and no day of the month.');
    if (Number.isNaN(Date.parse(`${input.onDate}T00:00:00Z`)))
      throw invalid(`${input.onDate} is not a date.`);
  } else if (input.day === undefined || input.onDate !== undefined)
    throw invalid(`A ${input.cadence} schedule takes the day of the month (1 to 28) and no date.`);
  const record: ScheduleRecord = {
    id: randomUUID(),
    profile_id: profileId,
    strategy_id: input.strategyId ?? null,
    tag,
    cadence: input.cadence,
    day: input.day ?? null,
    on_date: input.onDate ?? null,
    cooldown_days: input.cooldownDays,
    created_at: now,
  };
  store.attention.addSchedule(record);
  return scheduleView(record);
}
