import { describe, expect, it } from 'vitest';
import {
  actionLabel,
  environmentLabel,
  summarize,
} from '../../../renderer/src/drafts/confirmation';
import type { ExecutePreview, PredictedPositionView } from '../../../shared/views';

const position = (over: Partial<PredictedPositionView>): PredictedPositionView => ({
  symbol: 'KO',
  weight: '0',
  oldWeight: '10',
  action: 'REMOVE',
  heldQuantity: '0',
  sellsAll: false,
  heldNotInTarget: false,
  source: 'draft',
  effect: 'remove',
  ...over,
});

const preview = (over: Partial<ExecutePreview>): ExecutePreview =>
  ({
    planKey: 'k',
    profile: { name: 'P', environment: 'sandbox', baseUrl: 'http://127.0.0.1:1' },
    strategy: {} as ExecutePreview['strategy'],
    target: {
      kind: 'known',
      versionId: '11111111-2222-4333-8444-555555555555',
      executedAt: null,
      status: 'COMPLETE',
      origin: 'created',
    },
    check: { heldNotInTarget: [], targetNotHeld: [], updatedAfter: false, fits: true },
    positions: [],
    oldCash: '20',
    newCash: '30',
    changesNothing: false,
    targetUnconfirmed: false,
    earlierVersionId: null,
    ...over,
  }) as ExecutePreview;

describe('the confirmation words', () => {
  it('counts sales of held symbols apart from unchanged ones, adds first', () => {
    const s = summarize(
      preview({
        positions: [
          position({ symbol: 'PEP', action: 'IGNORE', effect: 'unchanged', oldWeight: '0' }),
          position({ symbol: 'XOM', heldQuantity: '3', sellsAll: true, effect: 'sell-held' }),
          position({ symbol: 'JNJ', action: 'ADD', effect: 'add', oldWeight: '0', weight: '5' }),
        ],
      }),
    );
    expect(s.lines.map((l) => l.symbol)).toEqual(['JNJ', 'XOM', 'PEP']);
    expect(s.headline).toBe('1 add, 1 held symbol sold whole, 1 unchanged.');
    expect(s.uncertain).toBe(false);
  });

  it('says when the target is unknown or the holdings do not fit it', () => {
    const unknown = summarize(
      preview({
        target: { kind: 'unknown' },
        check: null,
        positions: [position({ action: null, oldWeight: null, effect: 'unknown' })],
      }),
    );
    expect(unknown.headline).toContain('unknown to this app');
    expect(unknown.uncertain).toBe(true);
    expect(unknown.needsAcknowledgement).toBe(false);
    const stale = summarize(
      preview({
        check: { heldNotInTarget: ['TSLA'], targetNotHeld: [], updatedAfter: false, fits: false },
      }),
    );
    expect(stale.needsAcknowledgement).toBe(true);
    expect(stale.headline).toContain('the holdings do not fit');
    // The holdings fit, but the service no longer knows the version taken as the target.
    const unconfirmed = summarize(preview({ targetUnconfirmed: true }));
    expect(unconfirmed.needsAcknowledgement).toBe(true);
    expect(unconfirmed.uncertain).toBe(true);
  });

  it('a draft that changes nothing says so', () => {
    expect(summarize(preview({ changesNothing: true })).headline).toMatch(/changes nothing/);
  });

  it('labels actions and environments plainly', () => {
    expect(actionLabel(position({ sellsAll: true }))).toBe('REMOVE · sells all');
    expect(actionLabel(position({ action: null, sellsAll: true }))).toBe('unknown (sells all)');
    expect(environmentLabel(preview({}).profile)).toBe(
      'SANDBOX: a local simulation, no real money',
    );
    expect(
      environmentLabel({
        name: 'x',
        environment: 'production',
        baseUrl: 'https://api.example.com/v',
      }),
    ).toBe('api.example.com');
  });
});
