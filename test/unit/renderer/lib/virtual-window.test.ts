import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrollForKey, visibleWindow } from '../../../../renderer/src/lib/virtual/window';
import { parseDateRange } from '../../../../renderer/src/reports/range';

describe('visibleWindow', () => {
  it('covers the viewport, stays in bounds and accounts for every row', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 10, max: 60 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 2000 }),
        (count, rowHeight, scrollTop, viewportHeight) => {
          const w = visibleWindow({ count, rowHeight, scrollTop, viewportHeight });
          expect(0 <= w.start && w.start <= w.end && w.end <= count).toBe(true);
          expect(w.padTop + (w.end - w.start) * rowHeight + w.padBottom).toBe(count * rowHeight);
          // Every row in the viewport is rendered (when the scroll is within the content).
          const firstSeen = Math.floor(scrollTop / rowHeight);
          const lastSeen = Math.ceil((scrollTop + viewportHeight) / rowHeight);
          if (lastSeen <= count && count > 0) {
            expect(w.start).toBeLessThanOrEqual(firstSeen);
            expect(w.end).toBeGreaterThanOrEqual(Math.min(count, lastSeen));
          }
          // Only a screenful and the overscan: never the whole list.
          expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil(viewportHeight / rowHeight) + 17);
        },
      ),
    );
  });

  it('moves by a row, a page, to the ends, within the content', () => {
    const at = { scrollTop: 280, viewportHeight: 280, rowHeight: 28, count: 100 };
    expect(scrollForKey('ArrowDown', at)).toBe(308);
    expect(scrollForKey('ArrowUp', at)).toBe(252);
    expect(scrollForKey('PageDown', at)).toBe(280 + 224);
    expect(scrollForKey('Home', at)).toBe(0);
    expect(scrollForKey('End', at)).toBe(100 * 28 - 280 + 28);
    expect(scrollForKey('PageUp', { ...at, scrollTop: 10 })).toBe(0);
    expect(scrollForKey('a', at)).toBeNull();
  });
});

describe('parseDateRange', () => {
  it('turns two local days into [start of first, midnight after last) and refuses a reversed range', () => {
    const r = parseDateRange('2025-03-01', '2025-03-01');
    expect(r).toEqual({
      ok: true,
      from: new Date(2025, 2, 1).toISOString(),
      to: new Date(2025, 2, 2).toISOString(),
    });
    expect(parseDateRange('2025-03-10', '2025-03-01')).toMatchObject({ ok: false, field: 'to' });
    expect(parseDateRange('2025-02-30', '2025-03-01')).toMatchObject({ ok: false, field: 'from' });
    expect(parseDateRange('', '2025-03-01')).toMatchObject({ ok: false, field: 'from' });
  });
});
