import { describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import { deskEventsOf } from '../../../shared/event-listeners';
import { Listeners } from '../../../shared/listeners';
import { journalChanged } from '../../support/desk-events';

const PROFILE = '3f1e8a56-0a8e-4c3c-9a57-6d0b7f1f4a10';
const journal: DeskEvent = journalChanged(PROFILE);
const menu: DeskEvent = { type: 'menu-command', command: 'export-csv' };

describe('a listener set', () => {
  it('hands each event to the listeners present, in the order they joined, until they leave', () => {
    const listeners = new Listeners<string>();
    const heard: string[] = [];
    const leaveA = listeners.add((e) => heard.push(`a ${e}`));
    listeners.add((e) => heard.push(`b ${e}`));
    listeners.emit('1');
    leaveA();
    listeners.emit('2');
    expect(heard).toEqual(['a 1', 'b 1', 'b 2']);
  });

  it('opens with the first listener and closes with the last, once', () => {
    const told: string[] = [];
    const listeners = new Listeners<DeskEvent>({
      onFirst: () => told.push('first'),
      onLast: () => told.push('last'),
    });
    const events = deskEventsOf(listeners);
    const a = events.subscribe(() => undefined);
    const b = events.on('menu-command', () => undefined);
    a();
    a();
    b();
    expect(told).toEqual(['first', 'last']);
    expect(listeners.size).toBe(0);
  });

  it('lets the others hear an event a listener failed on, when told what to do with the error', () => {
    const errors: unknown[] = [];
    const listeners = new Listeners<DeskEvent>({ onListenerError: (e) => errors.push(e) });
    const heard: string[] = [];
    listeners.add(() => {
      throw new Error('broken');
    });
    listeners.add((event) => heard.push(event.type));
    listeners.emit(menu);
    expect(heard).toEqual(['menu-command']);
    expect(errors).toHaveLength(1);
  });
});

describe('a bridge’s events over a listener set', () => {
  it('hands on(type) only the events of its type, typed, until it unsubscribes', () => {
    const listeners = new Listeners<DeskEvent>();
    const profiles: string[] = [];
    const off = deskEventsOf(listeners).on('journal-changed', (event) =>
      profiles.push(event.profileId),
    );
    listeners.emit(menu);
    listeners.emit(journal);
    off();
    listeners.emit(journal);
    expect(profiles).toEqual([PROFILE]);
  });
});
