import { describe, expect, it } from 'vitest';
import {
  readRestrictionForm,
  type RestrictionFields,
} from '../../../../renderer/src/restrictions/form';

const fields = (more: Partial<RestrictionFields> = {}): RestrictionFields => ({
  kind: 'do-not-buy',
  symbol: 'tsla',
  scope: 'profile',
  strategyId: '',
  tag: '',
  reason: 'Under review',
  setBy: 'Dana',
  from: '',
  until: '',
  ...more,
});

describe('the add-restriction form', () => {
  it('reads a rule: the symbol upper-cased, from now, open-ended', () => {
    expect(readRestrictionForm(fields())).toEqual({
      ok: true,
      input: {
        kind: 'do-not-buy',
        symbol: 'TSLA',
        scope: { type: 'profile' },
        reason: 'Under review',
        setBy: 'Dana',
        until: null,
      },
    });
  });

  it('names each field in its error', () => {
    const read = readRestrictionForm(
      fields({ symbol: 'no way', scope: 'tag', reason: ' ', setBy: '', until: '2020-13-40' }),
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.errors).toEqual({
      symbol: 'Symbol: "no way" is not a symbol (letters, digits, . - /).',
      tag: 'Tag: name the tag whose strategies it applies to.',
      reason: 'Reason: say why the symbol is restricted.',
      setBy: 'Set by: say who sets it.',
      until: 'Until: "2020-13-40" is not a day.',
    });
  });

  it('refuses an until that does not come after from', () => {
    const read = readRestrictionForm(
      fields({ scope: 'strategy', strategyId: '', from: '2030-05-02', until: '2030-05-01' }),
    );
    expect(read.ok || read.errors).toEqual({
      strategyId: 'Strategy: choose the strategy it applies to.',
      until: 'Until: the day must come after From.',
    });
  });
});
