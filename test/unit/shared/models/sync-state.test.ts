import { describe, expect, it } from 'vitest';
import { syncStateOf, syncStateWords } from '../../../../shared/models/sync';

const FITS = { heldNotInTarget: [], targetNotHeld: [], updatedAfter: false, fits: true };
const model = [
  { symbol: 'aapl', weight: '40' },
  { symbol: 'MSFT', weight: '30.50' },
  { symbol: 'TSLA', weight: '0' },
];

describe('the sync state of a strategy following a model revision', () => {
  it('is in sync when the known target holds the same weights, compared as numbers', () => {
    const target = {
      positions: [
        { symbol: 'MSFT', weight: '30.5' },
        { symbol: 'AAPL', weight: '40.000' },
        // A target position at 0 targets nothing, as a model row at 0 does.
        { symbol: 'GOOG', weight: '0.00' },
      ],
    };
    expect(syncStateOf(model, target, FITS)).toEqual({ state: 'in-sync' });
    expect(syncStateOf(model, target, null)).toEqual({ state: 'in-sync' });
    expect(syncStateWords({ state: 'in-sync' })).toBe('in sync');
  });

  it('is rebalance-failed, not in sync, when the target equals the revision but its rebalance failed', () => {
    const target = {
      positions: [
        { symbol: 'AAPL', weight: '40' },
        { symbol: 'MSFT', weight: '30.5' },
      ],
    };
    const failed = { versionId: '6e2c8b4f-1d3a-4f9b-8c7e-4a5f6b7c8d92', failedSymbols: ['TSLA'] };
    const sync = syncStateOf(model, target, FITS, failed);
    expect(sync).toEqual({ state: 'rebalance-failed', ...failed });
    expect(syncStateWords(sync)).toBe('rebalance failed: TSLA not done');
    // A target that differs says so first: the next rebalance is needed either way.
    expect(
      syncStateOf(model, { positions: [{ symbol: 'AAPL', weight: '40' }] }, FITS, failed).state,
    ).toBe('out-of-sync');
  });

  it('is out of sync with every differing symbol listed, both weights, by symbol', () => {
    const target = {
      positions: [
        { symbol: 'MSFT', weight: '30.49' },
        { symbol: 'TSLA', weight: '5' },
        { symbol: 'AMZN', weight: '2' },
      ],
    };
    const sync = syncStateOf(model, target, FITS);
    expect(sync).toEqual({
      state: 'out-of-sync',
      differences: [
        { symbol: 'AAPL', modelWeight: '40', targetWeight: '0' },
        { symbol: 'AMZN', modelWeight: '0', targetWeight: '2' },
        { symbol: 'MSFT', modelWeight: '30.5', targetWeight: '30.49' },
        { symbol: 'TSLA', modelWeight: '0', targetWeight: '5' },
      ],
    });
    expect(syncStateWords(sync)).toBe('out of sync: 4 symbols differ');
  });

  it('is out of sync against an empty known target (everything removed), not unknown', () => {
    expect(syncStateOf(model, { positions: [] }, FITS)).toMatchObject({
      state: 'out-of-sync',
      differences: [{ symbol: 'AAPL' }, { symbol: 'MSFT' }],
    });
  });

  it('is target-unknown when no executed version is known here', () => {
    expect(syncStateOf(model, null, null)).toEqual({ state: 'target-unknown' });
    expect(syncStateWords({ state: 'target-unknown' })).toBe('target unknown');
  });

  it('is possibly-changed-elsewhere when the holdings do not fit the known target, even if equal', () => {
    const target = {
      positions: [
        { symbol: 'AAPL', weight: '40' },
        { symbol: 'MSFT', weight: '30.5' },
      ],
    };
    const check = {
      heldNotInTarget: ['NVDA'],
      targetNotHeld: [],
      updatedAfter: false,
      fits: false,
    };
    expect(syncStateOf(model, target, check)).toEqual({
      state: 'possibly-changed-elsewhere',
      differences: [],
      why: { heldNotInTarget: ['NVDA'], targetNotHeld: [], updatedAfter: false },
    });
    const updated = {
      heldNotInTarget: [],
      targetNotHeld: ['MSFT'],
      updatedAfter: true,
      fits: false,
    };
    const sync = syncStateOf(model, { positions: [{ symbol: 'AAPL', weight: '40' }] }, updated);
    expect(sync).toEqual({
      state: 'possibly-changed-elsewhere',
      differences: [{ symbol: 'MSFT', modelWeight: '30.5', targetWeight: '0' }],
      why: { heldNotInTarget: [], targetNotHeld: ['MSFT'], updatedAfter: true },
    });
    expect(syncStateWords(sync)).toBe('possibly changed elsewhere');
  });
});
