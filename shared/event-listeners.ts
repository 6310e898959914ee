import type { DeskEvent, DeskEventOf, DeskEventType, DeskEvents } from './contract';
import type { Listeners } from './listeners';

/**
 * The contract's `events` over a bridge's listener set (the preload's, the HTTP bridge's):
 * `subscribe` for every event, `on` for one type with its data typed, both returning the
 * unsubscribe function. Plain functions (contextBridge carries no class's methods), no zod (the
 * renderer bundles the HTTP bridge).
 */
export function deskEventsOf(listeners: Listeners<DeskEvent>): DeskEvents {
  return {
    subscribe: (listener) => listeners.add(listener),
    on: <T extends DeskEventType>(type: T, handler: (event: DeskEventOf<T>) => void) =>
      listeners.add((event) => {
        if (event.type === type) handler(event as DeskEventOf<T>);
      }),
  };
}
