import type { OrderReportRow } from '../../electron/core/reports/index';

/** A realistic filled order; tests override the cells they are about. */
export function orderRow(overrides: Partial<OrderReportRow> = {}): OrderReportRow {
  return {
    strategy_id: '0b6f5c1e-8d7a-4f2b-9c3e-1a2b3c4d5e6f',
    strategy_name: 'Global equity core',
    version_id: '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    version_status: 'COMPLETE',
    executed_at: '2025-03-14T09:30:12.123456Z',
    order_id: '9a8b7c6d-5e4f-4321-8fed-cba987654321',
    date: '2025-03-14',
    side: 'BUY',
    symbol: 'AAPL',
    status: 'FILLED',
    status_reason: null,
    order_quantity: '12.000000',
    order_value: '2345.678901',
    filled_quantity: '12.000000',
    filled_value: '2344.120000',
    filled_average_price: '195.343333',
    inserted_at: '2025-03-14T09:30:12.223456Z',
    updated_at: '2025-03-14T09:41:55.000001Z',
    ...overrides,
  };
}
