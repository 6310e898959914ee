import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isoDaysFromNow, nowIso } from './clock';
import { newStrategy } from './demo-builders';
import { createExecutedVersion, fillOrders, sendOrders, type RequestedPosition } from './engine';
import { HALTED_SYMBOL, PRICES } from './prices';
import type { SandboxState, StrategyRec } from './state';

/**
 * Many strategies at once, for tests and benchmarks of the book (POST /sandbox/strategies):
 * each funded, holding `holdings` symbols, optionally with one executed COMPLETE version (the
 * holdings are then that version's fills). Names are numbered; quantities vary by strategy.
 */

export const MAX_BULK_STRATEGIES = 10_000;

export const bulkStrategiesBody = z
  .object({
    count: z.int().min(1).max(MAX_BULK_STRATEGIES),
    holdings: z.int().min(0).max(30).default(8),
    organization: z.string().min(1).max(200).default('Demo Capital'),
    name_prefix: z.string().min(1).max(100).default('Bulk strategy'),
    /** Each strategy gets one executed, COMPLETE version whose fills are its holdings. */
    executed_version: z.boolean().default(false),
  })
  .strict();
export type BulkStrategies = z.infer<typeof bulkStrategiesBody>;

const SYMBOLS = Object.keys(PRICES).filter((s) => s !== HALTED_SYMBOL);

/** The `count` symbols of strategy `n`, a different slice of the universe for each. */
function symbolsOf(n: number, count: number): string[] {
  const start = (n * 7) % SYMBOLS.length;
  return Array.from({ length: count }, (_, k) => SYMBOLS[(start + k) % SYMBOLS.length]!);
}

export function createBulkStrategies(
  state: SandboxState,
  body: BulkStrategies,
): { ids: string[]; versionIds: (string | null)[] } {
  const ids: string[] = [];
  const versionIds: (string | null)[] = [];
  const first = state.strategies.size;
  const width = String(body.count).length;
  for (let i = 0; i < body.count; i++) {
    const n = first + i;
    const strategy: StrategyRec = newStrategy({
      id: randomUUID(),
      organization: body.organization,
      name: `${body.name_prefix} ${String(i + 1).padStart(width, '0')}`,
      description: `Created by POST /sandbox/strategies (${body.holdings} holdings).`,
      fee_percent: '0.25',
      cash: `${100_000 + (n % 50) * 10_000}.00`,
    });
    const symbols = symbolsOf(n, Math.min(body.holdings, SYMBOLS.length));
    if (body.executed_version && symbols.length > 0) {
      // Whole percents adding up to at most 90: the rest stays cash.
      const each = Math.max(1, Math.floor(90 / symbols.length));
      const target: RequestedPosition[] = symbols.map((symbol) => ({ symbol, weight: `${each}` }));
      const version = createExecutedVersion(strategy, target, isoDaysFromNow(-1));
      sendOrders(version, isoDaysFromNow(-1, 1_000));
      fillOrders(strategy, version, isoDaysFromNow(-1, 2_000));
      versionIds.push(version.id);
    } else {
      const at = nowIso();
      strategy.holdings = symbols.map((symbol, k) => ({
        id: randomUUID(),
        symbol,
        quantity: `${10 + ((n * 31 + k * 17) % 990)}.${String((n * 13 + k * 7) % 1_000_000).padStart(6, '0')}`,
        inserted_at: at,
        updated_at: at,
      }));
      if (symbols.length > 0) strategy.updated_at = at;
      versionIds.push(null);
    }
    state.strategies.set(strategy.id, strategy);
    ids.push(strategy.id);
  }
  return { ids, versionIds };
}
