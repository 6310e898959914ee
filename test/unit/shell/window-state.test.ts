import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIZE,
  MIN_SIZE,
  loadWindowState,
  parseWindowState,
  placeWindow,
  saveWindowState,
  type Rect,
} from '../../../electron/shell/window-state';

const laptop: Rect = { x: 0, y: 0, width: 1920, height: 1050 };
const rightMonitor: Rect = { x: 1920, y: 0, width: 2560, height: 1400 };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('window state', () => {
  it('reads back what it wrote, through a temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-window-'));
    dirs.push(dir);
    const file = join(dir, 'nested', 'window-state.json');
    saveWindowState(file, { x: 10.4, y: 20, width: 1000.6, height: 700, maximized: true });
    expect(loadWindowState(file)).toEqual({
      x: 10,
      y: 20,
      width: 1001,
      height: 700,
      maximized: true,
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ width: 1001 });
  });

  it.each([
    '',
    'not json',
    '{"x":1}',
    '{"x":1,"y":2,"width":3,"height":4,"maximized":"yes"}',
    '{"x":1,"y":2,"width":0,"height":4,"maximized":false}',
    '{"x":1,"y":2,"width":3,"height":4,"maximized":false,"extra":1}',
    '{"x":1e300,"y":2,"width":300,"height":400,"maximized":false}',
    '[]',
  ])('ignores a file holding %j', (text) => {
    expect(parseWindowState(text)).toBeNull();
  });

  it('treats a missing or unreadable file as no saved state', () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-window-'));
    dirs.push(dir);
    expect(loadWindowState(join(dir, 'none.json'))).toBeNull();
    writeFileSync(join(dir, 'bad.json'), '{');
    expect(loadWindowState(join(dir, 'bad.json'))).toBeNull();
  });

  it('reopens where it was when that is still on a display', () => {
    const saved = { x: 2000, y: 100, width: 1400, height: 900, maximized: false };
    expect(placeWindow(saved, [laptop, rightMonitor])).toEqual({ ...saved, centered: false });
  });

  it('centres on the primary display when the saved display is gone', () => {
    const saved = { x: 2000, y: 100, width: 1400, height: 900, maximized: true };
    const placed = placeWindow(saved, [laptop]);
    expect(placed).toEqual({
      x: (1920 - DEFAULT_SIZE.width) / 2,
      y: Math.round((1050 - DEFAULT_SIZE.height) / 2),
      ...DEFAULT_SIZE,
      maximized: true,
      centered: true,
    });
  });

  it('pulls a window that hangs off the edge back in, and shrinks one larger than the display', () => {
    const placed = placeWindow({ x: 1500, y: -40, width: 3000, height: 2000, maximized: false }, [
      laptop,
    ]);
    expect(placed).toEqual({
      x: 0,
      y: 0,
      width: 1920,
      height: 1050,
      maximized: false,
      centered: false,
    });
  });

  it('always lands fully inside one display, at least the minimum size where it fits', () => {
    const rect = fc.record({
      x: fc.integer({ min: -5000, max: 5000 }),
      y: fc.integer({ min: -5000, max: 5000 }),
      width: fc.integer({ min: 1, max: 6000 }),
      height: fc.integer({ min: 1, max: 6000 }),
    });
    const display = fc.record({
      x: fc.integer({ min: -4000, max: 4000 }),
      y: fc.integer({ min: -4000, max: 4000 }),
      width: fc.integer({ min: 640, max: 4000 }),
      height: fc.integer({ min: 480, max: 3000 }),
    });
    fc.assert(
      fc.property(
        fc.option(rect, { nil: null }),
        fc.array(display, { minLength: 1, maxLength: 3 }),
        (saved, areas) => {
          const placed = placeWindow(saved && { ...saved, maximized: false }, areas);
          const hosts = areas.filter(
            (a) =>
              placed.x >= a.x &&
              placed.y >= a.y &&
              placed.x + placed.width <= a.x + a.width &&
              placed.y + placed.height <= a.y + a.height,
          );
          expect(hosts.length).toBeGreaterThan(0);
          expect(
            hosts.some(
              (a) =>
                placed.width >= Math.min(MIN_SIZE.width, a.width) &&
                placed.height >= Math.min(MIN_SIZE.height, a.height),
            ),
          ).toBe(true);
        },
      ),
    );
  });
});
