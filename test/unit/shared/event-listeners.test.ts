import { describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import { EventListeners } from '../../../shared/event-listeners';

const PROFILE = '3f1e8a56-0a8e-4c3c-9a57-6d0b7f1f4a10';
const journal: DeskEvent = { type: 'journal-changed', profileId: PROFILE, inFlight: [] };
const menu: DeskEvent = { type: 'menu-command', command: 'export-csv' };

describe('a bridge’s event listeners', () => {
  it('hands on(type) only the events of its type, typed, until it unsubscribes', () => {
    const listeners = new EventListeners();
    const profiles: string[] = [];
    const off = listeners.on('journal-changed', (event) => profiles.push(event.profileId));
    listeners.emit(menu);
    listeners.emit(journal);
    off();
    listeners.emit(journal);
    expect(profiles).toEqual([PROFILE]);
  });

  it('opens with the first listener and closes with the last', () => {
    const told: string[] = [];
    const listeners = new EventListeners({
      onFirst: () => told.push('first'),
      onLast: () => told.push('last'),
    });
    const a = listeners.subscribe(() => undefined);
    const b = listeners.on('menu-command', () => undefined);
    a();
    a();
    b();
    expect(told).toEqual(['first', 'last']);
    expect(listeners.size).toBe(0);
  });

  it('lets the others hear an event a listener failed on, when told what to do with the error', () => {
    const errors: unknown[] = [];
    const listeners = new EventListeners({ onListenerError: (e) => errors.push(e) });
    const heard: string[] = [];
    listeners.subscribe(() => {
      throw new Error('broken');
    });
    listeners.subscribe((event) => heard.push(event.type));
    listeners.emit(menu);
    expect(heard).toEqual(['menu-command']);
    expect(errors).toHaveLength(1);
  });
});
