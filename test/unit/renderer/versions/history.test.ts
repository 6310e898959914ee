import { describe, expect, it } from 'vitest';
import type { VersionSummary } from '../../../../shared/views';
import { withSummary } from '../../../../renderer/src/versions/history';

const line = (
  id: string,
  insertedAt: string,
  more: Partial<VersionSummary> = {},
): VersionSummary => ({
  id,
  strategyId: '00000000-0000-4000-8000-000000000000',
  status: 'PENDING',
  cashWeight: '0',
  oldCashWeight: '0',
  scheduledFor: null,
  executedAt: null,
  insertedAt,
  origin: 'created',
  syncedAt: '2026-01-01T00:00:01.000Z',
  ...more,
});
const a = line('aaaaaaaa-0000-4000-8000-000000000000', '2026-01-01T00:00:00.000Z');
const b = line('bbbbbbbb-0000-4000-8000-000000000000', '2026-01-02T00:00:00.000Z');
const c = line('cccccccc-0000-4000-8000-000000000000', '2026-01-02T00:00:00.000Z');

describe('a version line told by a status change', () => {
  it('replaces the known line in place', () => {
    const told = { ...a, status: 'COMPLETE' as const, syncedAt: '2026-01-01T00:00:02.000Z' };
    expect(withSummary([b, a], told)).toEqual([b, told]);
  });

  it('keeps a line read after the one told', () => {
    const told = { ...a, status: 'IN_PROGRESS' as const, syncedAt: '2026-01-01T00:00:00.500Z' };
    expect(withSummary([b, a], told)).toEqual([b, a]);
  });

  it('adds an unknown version where the desk lists it: newest first, then by id', () => {
    expect(withSummary([], a)).toEqual([a]);
    expect(withSummary([a], c)).toEqual([c, a]);
    expect(withSummary([c, a], b)).toEqual([b, c, a]);
  });
});
