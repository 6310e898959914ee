import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

/** The window's size and place, remembered between launches in userData/window-state.json. */
export const windowState = z
  .object({
    x: z.number().int().min(-100_000).max(100_000),
    y: z.number().int().min(-100_000).max(100_000),
    width: z.number().int().min(1).max(100_000),
    height: z.number().int().min(1).max(100_000),
    maximized: z.boolean(),
  })
  .strict();
export type WindowState = z.infer<typeof windowState>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1280, height: 800 } as const;
export const MIN_SIZE = { width: 900, height: 600 } as const;

/** Null when the file's content is not a window state we wrote (hand-edited, truncated, old). */
export function parseWindowState(text: string): WindowState | null {
  try {
    const parsed = windowState.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Where to open the window: the saved bounds when they still fit a display (a monitor may have
 * been unplugged since), moved and shrunk into the display they overlap most, otherwise centred
 * on the primary display at the default size.
 */
export function placeWindow(
  saved: WindowState | null,
  workAreas: readonly Rect[],
): WindowState & { centered: boolean } {
  const primary = workAreas[0] ?? { x: 0, y: 0, ...DEFAULT_SIZE };
  if (saved) {
    const target = largestOverlap(saved, workAreas);
    if (target) {
      const width = clamp(saved.width, Math.min(MIN_SIZE.width, target.width), target.width);
      const height = clamp(saved.height, Math.min(MIN_SIZE.height, target.height), target.height);
      return {
        x: clamp(saved.x, target.x, target.x + target.width - width),
        y: clamp(saved.y, target.y, target.y + target.height - height),
        width,
        height,
        maximized: saved.maximized,
        centered: false,
      };
    }
  }
  const width = Math.min(DEFAULT_SIZE.width, primary.width);
  const height = Math.min(DEFAULT_SIZE.height, primary.height);
  return {
    x: primary.x + Math.round((primary.width - width) / 2),
    y: primary.y + Math.round((primary.height - height) / 2),
    width,
    height,
    maximized: saved?.maximized ?? false,
    centered: true,
  };
}

export function loadWindowState(file: string): WindowState | null {
  try {
    return parseWindowState(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Written to a temporary file and renamed over, so a crash never leaves half a file. Synchronous:
 * it runs while the window closes, when nothing waits for a promise. The file is tiny.
 */
export function saveWindowState(file: string, state: WindowState): void {
  const valid = windowState.parse({
    ...state,
    x: Math.round(state.x),
    y: Math.round(state.y),
    width: Math.round(state.width),
    height: Math.round(state.height),
  });
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(valid, null, 2)}\n`, {
    encoding: 'utf8',
    mode: 0o600,
  });
  renameSync(temporary, file);
}

function largestOverlap(rect: Rect, areas: readonly Rect[]): Rect | null {
  let best: Rect | null = null;
  let bestArea = 0;
  for (const area of areas) {
    const w = Math.min(rect.x + rect.width, area.x + area.width) - Math.max(rect.x, area.x);
    const h = Math.min(rect.y + rect.height, area.y + area.height) - Math.max(rect.y, area.y);
    // At least a grab-able strip of the title bar must be visible for the place to count.
    if (w >= 50 && h >= 30 && w * h > bestArea) {
      best = area;
      bestArea = w * h;
    }
  }
  return best;
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}
