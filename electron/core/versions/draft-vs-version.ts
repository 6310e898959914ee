import { toDecimal } from '../../../shared/decimal';
import type { PositionAction } from '../../../shared/domain/resources';
import type { DraftComparison, DraftComparisonRow } from '../../../shared/versions/unexecuted';

/**
 * How an unexecuted version differs from the draft that would replace it, symbol by symbol:
 * the weight each would make the target (a symbol either leaves out, or drops, counts 0). Symbols
 * neither targets are left out; those where they differ come first, each group in the version's
 * order, then the draft's.
 */
export function compareVersionWithDraft(
  version: {
    positions: readonly { symbol: string; weight: string; action: PositionAction }[];
    cashWeight: string;
  },
  draft: {
    draftId: string;
    draftName: string;
    /** The positions executing the draft sends (every earlier target symbol named). */
    positions: readonly { symbol: string; weight: string }[];
    cashWeight: string;
  },
): DraftComparison {
  const inVersion = new Map(version.positions.map((p) => [p.symbol, p]));
  const inDraft = new Map(draft.positions.map((p) => [p.symbol, p.weight]));
  const symbols = [...new Set([...inVersion.keys(), ...inDraft.keys()])];
  const rows: DraftComparisonRow[] = [];
  for (const symbol of symbols) {
    const v = inVersion.get(symbol);
    const versionWeight = v?.weight ?? '0';
    const draftWeight = inDraft.get(symbol) ?? '0';
    const a = toDecimal(versionWeight);
    const b = toDecimal(draftWeight);
    if (a.isZero() && b.isZero()) continue;
    rows.push({
      symbol,
      versionWeight,
      draftWeight,
      versionAction: v?.action ?? null,
      difference: b.isZero()
        ? 'only-version'
        : a.isZero()
          ? 'only-draft'
          : a.equals(b)
            ? 'same'
            : 'weights-differ',
    });
  }
  const differing = rows.filter((r) => r.difference !== 'same');
  const same = rows.filter((r) => r.difference === 'same');
  return {
    draftId: draft.draftId,
    draftName: draft.draftName,
    rows: [...differing, ...same],
    cash: { version: version.cashWeight, draft: draft.cashWeight },
  };
}
