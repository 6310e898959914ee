import { randomUUID } from 'node:crypto';
import type { Order, Version } from '../../shared/domain/resources';
import { ORDER_STATUSES } from '../../shared/domain/resources';

/**
 * A version with many orders, as the service could send it, for storing straight into the desk's
 * store: the sandbox's strategies are too small to produce 10,000 orders.
 */
export function syntheticVersion(strategyId: string, orderCount: number): Version {
  const symbols = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'JPM', 'SPY', 'KO', 'PEP', 'XOM', 'HALTED'];
  const orders: Order[] = [];
  for (let i = 0; i < orderCount; i++) {
    const status = ORDER_STATUSES[i % 7 === 3 ? 4 : i % 11 === 5 ? 1 : 3]!;
    const filled = status === 'FILLED';
    const cents = String(i % 100).padStart(2, '0');
    orders.push({
      id: randomUUID(),
      date: '2020-01-02',
      side: i % 3 === 0 ? 'SELL' : 'BUY',
      symbol: symbols[i % symbols.length]!,
      status,
      status_reason:
        status === 'FAILED'
          ? `Order ${i} could not be filled`
          : status === 'IGNORED'
            ? 'Order value is below the minimum of 1.00'
            : null,
      order_quantity: `${(i % 500) + 1}.${String(i % 1000).padStart(3, '0')}`,
      order_value: `${(i * 7) % 10000}.${cents}`,
      filled_quantity: filled ? `${(i % 500) + 1}.${String(i % 1000).padStart(3, '0')}` : null,
      filled_value: filled ? `${(i * 7) % 10000}.${cents}` : null,
      filled_average_price: filled ? `${(i % 90) + 10}.25` : null,
      inserted_at: '2020-01-02T10:00:00.000000Z',
      updated_at: '2020-01-02T10:05:00.000000Z',
    });
  }
  return {
    id: randomUUID(),
    strategy_id: strategyId,
    cash_weight: '5',
    old_cash_weight: '100',
    scheduled_for: null,
    status: 'COMPLETE',
    executed_at: '2020-01-02T10:00:00.000000Z',
    inserted_at: '2020-01-02T09:59:00.000000Z',
    orders,
    positions: symbols.slice(0, 9).map((symbol) => ({
      id: randomUUID(),
      symbol,
      old_weight: '0',
      weight: symbol === 'SPY' ? '15' : '10',
      action: 'ADD',
    })),
  };
}
