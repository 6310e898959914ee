import { describe, expect, it } from 'vitest';
import { suggestedName } from '../../../../electron/core/desk/reports';
import { parseDateRange } from '../../../../renderer/src/reports/range';

/** The name offered for a date-range export carries the days the manager typed, both included. */
describe('the suggested name of a date-range export', () => {
  const nameFor = (from: string, to: string) => {
    const range = parseDateRange(from, to);
    if (!range.ok) throw new Error(range.error);
    return suggestedName({ kind: 'range', from: range.from, to: range.to });
  };

  it('ends with the last day typed, not the day after', () => {
    expect(nameFor('2025-01-01', '2025-01-31')).toBe('orders-2025-01-01-to-2025-01-31.csv');
    expect(nameFor('2024-12-31', '2024-12-31')).toBe('orders-2024-12-31-to-2024-12-31.csv');
    expect(nameFor('2024-02-01', '2024-02-29')).toBe('orders-2024-02-01-to-2024-02-29.csv');
  });

  it('names versions and strategies by their ids', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(suggestedName({ kind: 'version', strategyId: id, versionId: id })).toBe(
      `orders-version-${id}.csv`,
    );
    expect(suggestedName({ kind: 'strategy', strategyId: id })).toBe(`orders-strategy-${id}.csv`);
  });
});
