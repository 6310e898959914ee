import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import { attentionQueue, type SignalSource } from '../attention/queue';
import { addSchedule, scheduleView, setSignalAside } from '../attention/set-aside';
import type { Store } from '../store';

export interface AttentionServices {
  store: Store;
  /** Every signal source the queue reads (the app's own, and other areas'). */
  sources: readonly SignalSource[];
  now(): string;
}

/** The `attention` area: each handler passes the call to the attention queue (core/attention). */
export function attentionHandlers({
  store,
  sources,
  now,
}: AttentionServices): DeskHandlers['attention'] {
  const profile = (profileId: string) => {
    if (!store.profiles.get(profileId))
      throw new DeskError({ kind: 'not-found', message: 'This profile is not in the app.' });
  };
  return {
    queue: async ({ profileId, kind, limit }) => {
      profile(profileId);
      return attentionQueue(store, sources, profileId, now(), { kind, limit });
    },
    dismiss: async (input) => {
      setSignalAside(store, sources, input, now());
      return { ok: true };
    },
    schedules: async ({ profileId }) => {
      profile(profileId);
      return store.attention.schedules(profileId).map(scheduleView);
    },
    setSchedule: async (input) =>
      addSchedule(store, { ...input, cooldownDays: input.cooldownDays ?? 0 }, now()),
    removeSchedule: async ({ profileId, scheduleId }) => {
      if (!store.attention.removeSchedule(profileId, scheduleId))
        throw new DeskError({ kind: 'not-found', message: 'This schedule is not in the app.' });
      return { ok: true };
    },
  };
}
