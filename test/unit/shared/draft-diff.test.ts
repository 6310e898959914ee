import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../shared/decimal';
import { diffDraft, predictAction } from '../../../shared/draft/diff';
import { validateDraft } from '../../../shared/draft/validate';
import type { DraftRowInput, HeldPosition, TargetPosition } from '../../../shared/draft/types';

const row = (symbol: string, weight: string): DraftRowInput => ({ symbol, weight });
const diff = (
  rows: DraftRowInput[],
  target: TargetPosition[] = [],
  holdings: HeldPosition[] = [],
) => diffDraft(validateDraft(rows, { previousTarget: target }), target, holdings);

describe('predictAction (docs/decisions.md, Execution)', () => {
  it.each([
    ['0', '5', 'ADD'],
    ['5', '7', 'CHANGE'],
    ['5', '0', 'REMOVE'],
    ['5', '5.00', 'IGNORE'],
    ['0', '0', 'IGNORE'],
    ['0.000', '0', 'IGNORE'],
    ['10.10', '10.1', 'IGNORE'],
  ])('old %s, new %s: %s', (old, now, action) => {
    expect(predictAction(new Decimal(old), new Decimal(now))).toBe(action);
  });
});

describe('diffDraft', () => {
  const target = [
    { symbol: 'AAPL', weight: '10' },
    { symbol: 'MSFT', weight: '20.00' },
    { symbol: 'GOOG', weight: '5' },
    { symbol: 'SOLD', weight: '0' },
  ];
  const holdings = [
    { symbol: 'GOOG', quantity: '3' },
    { symbol: 'TSLA', quantity: '7.5' },
    { symbol: 'AAPL', quantity: '12' },
    { symbol: 'DUST', quantity: '0.000' },
  ];

  it('gives each symbol old and new weight, change, action and held quantity', () => {
    const d = diff(
      [row('aapl', '12.5'), row('MSFT', '20'), row('NVDA', '3'), row('AMD', '0')],
      target,
      holdings,
    );
    expect(
      d.rows.map((r) => [r.symbol, r.oldWeight, r.newWeight, r.change, r.action, r.heldQuantity]),
    ).toEqual([
      ['AAPL', '10', '12.5', '2.5', 'CHANGE', '12'],
      ['MSFT', '20.00', '20', '0', 'IGNORE', '0'],
      ['NVDA', '0', '3', '3', 'ADD', '0'],
      ['AMD', '0', '0', '0', 'IGNORE', '0'],
      ['GOOG', '5', '0', '-5', 'REMOVE', '3'],
      ['TSLA', '0', '0', '0', 'IGNORE', '7.5'],
    ]);
  });

  it('orders draft rows first, then left-out target symbols, then other held symbols', () => {
    const d = diff([row('NVDA', '1'), row('MSFT', '2')], target, holdings);
    expect(d.rows.map((r) => [r.symbol, r.draftIndex])).toEqual([
      ['NVDA', 0],
      ['MSFT', 1],
      ['AAPL', null],
      ['GOOG', null],
      ['TSLA', null],
    ]);
  });

  it('flags held symbols left out of the draft and target symbols left out', () => {
    const d = diff([row('MSFT', '2')], target, holdings);
    const flags = Object.fromEntries(
      d.rows.map((r) => [r.symbol, [r.heldNotInDraft, r.inTargetNotInDraft]]),
    );
    expect(flags).toEqual({
      MSFT: [false, false],
      AAPL: [true, true],
      GOOG: [true, true],
      TSLA: [true, false],
    });
    expect(d.rows.find((r) => r.symbol === 'DUST')).toBeUndefined();
  });

  it('a held symbol set to 0 in the draft is in the draft: not flagged, REMOVE', () => {
    const d = diff([row('GOOG', '0')], target, holdings);
    expect(d.rows[0]).toMatchObject({ symbol: 'GOOG', action: 'REMOVE', heldNotInDraft: false });
  });

  it('gives invalid rows no action, and a change only when the weight is a decimal', () => {
    const d = diff(
      [row('AAPL', '120'), row('MSFT', 'abc'), row('NVDA', '1'), row('NVDA', '2')],
      target,
    );
    expect(d.rows.slice(0, 4).map((r) => [r.change, r.action])).toEqual([
      ['110', null],
      [null, null],
      ['1', null],
      ['2', null],
    ]);
  });

  it('old cash is 100 minus the target, 100 without a target; new cash is the draft cash', () => {
    expect(diff([row('AAPL', '10')], target)).toMatchObject({ oldCash: '65', newCash: '90' });
    expect(diff([row('AAPL', '10')])).toMatchObject({ oldCash: '100', newCash: '90' });
  });

  it('handles a strategy with no version and no holdings', () => {
    const d = diff([row('AAPL', '10')]);
    expect(d.rows).toHaveLength(1);
    expect(d.rows[0]).toMatchObject({ action: 'ADD', oldWeight: '0', change: '10' });
  });
});
