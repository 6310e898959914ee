import { describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../../shared/contract';
import { EventHub } from '../../../../electron/core/desk/events';

/** An event told apart by its export id. */
const changed = (exportId: string): DeskEvent => ({
  type: 'export-progress',
  exportId,
  rows: 0,
  done: false,
});
const idOf = (e: DeskEvent) => (e.type === 'export-progress' ? e.exportId : e.type);

describe('the desk’s event hub', () => {
  it('delivers an event a listener emits after the one under way has reached every listener', () => {
    const hub = new EventHub();
    const heard: string[] = [];
    hub.subscribe((e) => {
      if (idOf(e) === 'cause') hub.emit(changed('consequence'));
    });
    hub.subscribe((e) => heard.push(idOf(e)));
    hub.emit(changed('cause'));
    expect(heard).toEqual(['cause', 'consequence']);
  });

  it('a listener that throws does not keep the others, or the next event, from being heard', () => {
    const hub = new EventHub();
    const heard: string[] = [];
    hub.subscribe(() => {
      throw new Error('broken');
    });
    hub.subscribe((e) => heard.push(idOf(e)));
    hub.emit(changed('a'));
    hub.emit(changed('b'));
    expect(heard).toEqual(['a', 'b']);
  });
});
