import { describe, expect, it } from 'vitest';
import {
  actionLabel,
  environmentLabel,
  summarize,
} from '../../../../renderer/src/drafts/confirmation';
import type { ExecutePreview, PredictedPositionView } from '../../../../shared/views';

const position = (over: Partial<PredictedPositionView>): PredictedPositionView => ({
  symbol: 'KO',
  weight: '0',
  oldWeight: '10',
  action: 'REMOVE',
  doubt: null,
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
    doubts: [],
    possiblyTargeted: [],
    needsAcknowledgement: false,
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

  it('on a target in doubt counts only the sales as facts, never "unchanged"', () => {
    const uncertain = (over: Partial<PredictedPositionView>) =>
      position({ action: 'uncertain', effect: 'uncertain', ...over });
    const unknown = summarize(
      preview({
        target: { kind: 'unknown' },
        check: null,
        doubts: ['unknown'],
        needsAcknowledgement: true,
        positions: [
          uncertain({ symbol: 'KO', oldWeight: null, weight: '10', doubt: 'unknown' }),
          uncertain({
            symbol: 'XOM',
            oldWeight: null,
            heldQuantity: '3',
            sellsAll: true,
            effect: 'sell-held',
            doubt: 'unknown',
          }),
        ],
      }),
    );
    expect(unknown.lines.map((l) => l.symbol)).toEqual(['XOM', 'KO']);
    expect(unknown.headline).toBe(
      '1 held symbol sold whole, 1 position whose action is uncertain. No action is predicted: ' +
        'no executed version of this strategy is known here. The service decides each action ' +
        'from the target it holds now.',
    );
    expect(unknown.uncertain).toBe(true);
    // The preview says whether the tick is needed: the desk decided it, and checks it again.
    expect(unknown.needsAcknowledgement).toBe(true);
    const stale = summarize(
      preview({
        check: { heldNotInTarget: ['TSLA'], targetNotHeld: [], updatedAfter: false, fits: false },
        doubts: ['stale'],
        needsAcknowledgement: true,
        positions: [uncertain({ symbol: 'PEP', oldWeight: '10', weight: '10', doubt: 'stale' })],
      }),
    );
    expect(stale.needsAcknowledgement).toBe(true);
    expect(stale.headline).toContain('the holdings do not fit the last known target');
    expect(stale.headline).not.toMatch(/unchanged/);
    const unconfirmed = summarize(
      preview({ targetUnconfirmed: true, doubts: ['unconfirmed'], needsAcknowledgement: true }),
    );
    expect(unconfirmed.headline).toContain('the service no longer knows the version');
    expect(unconfirmed.uncertain).toBe(true);
  });

  it('a draft that changes nothing says so', () => {
    expect(summarize(preview({ changesNothing: true })).headline).toMatch(/changes nothing/);
  });

  it('labels actions and environments plainly', () => {
    expect(actionLabel(position({ sellsAll: true }))).toBe('REMOVE · sells all');
    expect(actionLabel(position({ action: 'uncertain', sellsAll: true }))).toBe(
      'sells all · action uncertain',
    );
    expect(actionLabel(position({ action: 'uncertain' }))).toBe('uncertain');
    // Held and already at 0 in the target: the sale, not an IGNORE that contradicts it.
    expect(actionLabel(position({ action: 'IGNORE', sellsAll: true }))).toBe(
      'sells all · target weight stays 0',
    );
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
