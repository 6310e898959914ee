import { describe, expect, it } from 'vitest';
import {
  computerRestartedSince,
  computerStart,
  sameStart,
} from '../../../../electron/core/execution/boot';

/** Settings as a map: the start the last run wrote. */
const settings = (value: string | null) => {
  const map = new Map<string, string>(value === null ? [] : [['computer-start', value]]);
  return {
    get: (key: string) => map.get(key) ?? null,
    set: (key: string, v: string) => void map.set(key, v),
    map,
  };
};

describe("the computer's start", () => {
  it('reads the same start twice in one run', () => {
    expect(sameStart(computerStart(), computerStart())).toBe(true);
  });

  it('compares boot ids exactly and start times within a few seconds', () => {
    expect(sameStart('id:a', 'id:a')).toBe(true);
    expect(sameStart('id:a', 'id:b')).toBe(false);
    expect(sameStart('at:1000', 'at:1004')).toBe(true);
    expect(sameStart('at:1000', 'at:1030')).toBe(false);
    expect(sameStart('at:1000', 'id:a')).toBe(false);
    expect(sameStart('at:x', 'at:1000')).toBe(false);
  });

  it('says restarted when nothing was written before, or another start was, and writes this one', () => {
    const first = settings(null);
    expect(computerRestartedSince(first, 'id:now')).toBe(true);
    expect(first.map.get('computer-start')).toBe('id:now');
    expect(computerRestartedSince(first, 'id:now')).toBe(false);
    const other = settings('id:before');
    expect(computerRestartedSince(other, 'id:now')).toBe(true);
    expect(other.map.get('computer-start')).toBe('id:now');
  });
});
