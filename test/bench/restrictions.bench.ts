/**
 * Restrictions in the draft editor: validating a 1,000-row draft (createDraftAnalyzer's
 * `analyze`, its validation, diff and restriction check) with a 200-symbol restriction list in
 * force, divided by validating the same draft without one, measured in one run (warm-up, then
 * the median of several runs). Half the restricted symbols are rows of the draft, half of those
 * held, so every class of violation is found on each call.
 */
import { createDraftAnalyzer } from '../../shared/draft/analyzer';
import type { DraftRowInput, HeldPosition, TargetPosition } from '../../shared/draft/types';
import { restrictionsInForce, type Restriction } from '../../shared/restrictions/rules';
import { median } from '../support/median';

const ROWS = 1000;
const RESTRICTED = 200;
const KINDS = ['do-not-buy', 'do-not-sell', 'hold'] as const;

function fixture() {
  const symbols = Array.from({ length: ROWS }, (_, i) => `S${String(i).padStart(4, '0')}`);
  const rows: DraftRowInput[] = symbols.map((symbol) => ({ symbol, weight: '0.05' }));
  const target: TargetPosition[] = symbols.map((symbol) => ({ symbol, weight: '0.04' }));
  const holdings: HeldPosition[] = symbols
    .filter((_, i) => i % 2 === 0)
    .map((symbol) => ({ symbol, quantity: '10' }));
  // Every fifth row's symbol, and as many symbols the draft does not name.
  const list: Restriction[] = Array.from({ length: RESTRICTED }, (_, i) => ({
    id: `r-${i}`,
    kind: KINDS[i % 3]!,
    symbol: i % 2 === 0 ? symbols[(i * 5) % ROWS]! : `X${i}`,
    scope: { type: 'profile' },
    reason: 'Compliance',
    setBy: 'ana',
    from: '2026-01-01T00:00:00.000Z',
    until: null,
  }));
  const restrictions = restrictionsInForce(
    list,
    { strategyId: 's', tags: [] },
    '2026-06-01T00:00:00.000Z',
  );
  return { rows, target, holdings, restrictions };
}

/**
 * CPU milliseconds per validation of the whole draft, as the editor's first analysis of it: a
 * new analyzer given the context (the target, the holdings, the list or none), every row read.
 */
function run(withRestrictions: boolean, count: number): number {
  const { rows, target, holdings, restrictions } = fixture();
  const options = withRestrictions ? { restrictions } : {};
  let sink = 0;
  const began = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const { validation, restrictions: found } = createDraftAnalyzer(
      target,
      holdings,
      options,
    ).analyze(rows);
    sink += validation.rows.length + found.length;
  }
  const used = process.cpuUsage(began);
  if (sink === 0) throw new Error('nothing validated');
  return (used.user + used.system) / 1000 / count;
}

export default async function restrictionsBench(): Promise<Record<string, number>> {
  const count = 20;
  for (let i = 0; i < 3; i++) {
    run(false, count);
    run(true, count);
  }
  const without: number[] = [];
  const withList: number[] = [];
  for (let i = 0; i < 9; i++) {
    without.push(run(false, count));
    withList.push(run(true, count));
  }
  return {
    restrictions_check_vs_validate_ratio: Number((median(withList) / median(without)).toFixed(2)),
  };
}
