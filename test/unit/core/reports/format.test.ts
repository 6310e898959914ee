import { describe, expect, it } from 'vitest';
import {
  ORDER_REPORT_COLUMNS,
  ORDER_REPORT_HEADER,
  OrderReportRowError,
  formatOrderReportRow,
  type OrderReportRow,
} from '../../../../electron/core/reports/index';
import { parseCsv } from '../../../support/rfc4180';
import { orderRow } from '../../../support/order-rows';

/** The cells of one formatted row, parsed back. */
function cells(row: OrderReportRow): Record<string, string | undefined> {
  const line = formatOrderReportRow(row);
  expect(line.endsWith('\r\n')).toBe(true);
  const [record, ...rest] = parseCsv(line);
  expect(rest).toEqual([]);
  return Object.fromEntries(ORDER_REPORT_COLUMNS.map((column, i) => [column, record![i]]));
}

describe('order report header', () => {
  it('lists the 18 columns in the documented order, CRLF-terminated', () => {
    expect(ORDER_REPORT_HEADER).toBe(
      'strategy_id,strategy_name,version_id,version_status,executed_at,order_id,date,side,symbol,' +
        'status,status_reason,order_quantity,order_value,filled_quantity,filled_value,' +
        'filled_average_price,inserted_at,updated_at\r\n',
    );
  });
});

describe('formatOrderReportRow', () => {
  it('writes a plain order unquoted, decimals exactly as received', () => {
    expect(
      formatOrderReportRow(orderRow({ order_quantity: '12.500000', filled_value: '0.10' })),
    ).toBe(
      '0b6f5c1e-8d7a-4f2b-9c3e-1a2b3c4d5e6f,Global equity core,5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d,' +
        'COMPLETE,2025-03-14T09:30:12.123456Z,9a8b7c6d-5e4f-4321-8fed-cba987654321,2025-03-14,BUY,' +
        'AAPL,FILLED,,12.500000,2345.678901,12.000000,0.10,195.343333,' +
        '2025-03-14T09:30:12.223456Z,2025-03-14T09:41:55.000001Z\r\n',
    );
  });

  it('writes an empty cell for every null', () => {
    const line = formatOrderReportRow(
      orderRow({
        version_status: null,
        executed_at: null,
        status_reason: null,
        filled_quantity: null,
        filled_value: null,
        filled_average_price: null,
      }),
    );
    const record = parseCsv(line)[0]!;
    for (const column of [
      'version_status',
      'executed_at',
      'status_reason',
      'filled_quantity',
      'filled_value',
      'filled_average_price',
    ] as const)
      expect(record[ORDER_REPORT_COLUMNS.indexOf(column)]).toBe('');
  });

  it.each([
    ['a quote', 'Broker said "no"', '"Broker said ""no"""'],
    ['a comma', 'Insufficient cash, reduced', '"Insufficient cash, reduced"'],
    ['a CR', 'line one\rline two', '"line one\rline two"'],
    ['an LF', 'line one\nline two', '"line one\nline two"'],
    ['a CRLF', 'line one\r\nline two', '"line one\r\nline two"'],
  ])('quotes a cell holding %s', (_, reason, written) => {
    const line = formatOrderReportRow(orderRow({ status_reason: reason }));
    expect(line).toContain(`,FILLED,${written},12.000000,`);
    expect(cells(orderRow({ status_reason: reason })).status_reason).toBe(reason);
  });

  it.each(['=', '+', '-', '@', '\t', '\r', '\n'])(
    'neutralizes a text cell starting with %j by a leading single quote',
    (prefix) => {
      const name = `${prefix}SUM(A1:A9)`;
      const parsed = cells(orderRow({ strategy_name: name, status_reason: name, symbol: name }));
      expect(parsed.strategy_name).toBe(`'${name}`);
      expect(parsed.status_reason).toBe(`'${name}`);
      expect(parsed.symbol).toBe(`'${name}`);
    },
  );

  it('neutralizes formula-like ids, statuses and sides too', () => {
    const parsed = cells(
      orderRow({ order_id: '=1+1', side: '+BUY', status: '@FILLED', version_status: '-X' }),
    );
    expect([parsed.order_id, parsed.side, parsed.status, parsed.version_status]).toEqual([
      "'=1+1",
      "'+BUY",
      "'@FILLED",
      "'-X",
    ]);
  });

  it('quotes a neutralized cell that also holds a comma or a quote', () => {
    const line = formatOrderReportRow(orderRow({ strategy_name: '=HYPERLINK("x","y")' }));
    expect(line).toContain(',"\'=HYPERLINK(""x"",""y"")",');
  });

  it('keeps negative decimals as numbers, without a quote prefix', () => {
    const line = formatOrderReportRow(
      orderRow({ order_quantity: '-5.5', order_value: '-1074.000001', filled_quantity: '-0' }),
    );
    expect(line).toContain(',-5.5,-1074.000001,-0,');
    expect(line).not.toContain("'");
  });

  it.each([
    ['order_quantity', '1e5'],
    ['order_value', '1,234.50'],
    ['filled_quantity', ' 12'],
    ['filled_value', '=1+1'],
    ['filled_average_price', 'NaN'],
    ['order_value', ''],
    ['order_quantity', '+5'],
  ] as const)('rejects %s %j, naming the order and the column', (column, value) => {
    const row = orderRow({ [column]: value });
    expect(() => formatOrderReportRow(row)).toThrow(OrderReportRowError);
    expect(() => formatOrderReportRow(row)).toThrow(
      `Order 9a8b7c6d-5e4f-4321-8fed-cba987654321 cannot be exported: its ${column}`,
    );
    try {
      formatOrderReportRow(row);
    } catch (error) {
      expect((error as OrderReportRowError).column).toBe(column);
      expect((error as OrderReportRowError).orderId).toBe(row.order_id);
    }
  });

  it('rejects a decimal that arrives as a JS number instead of text', () => {
    const row = orderRow({ filled_value: 0.1 as unknown as string });
    expect(() => formatOrderReportRow(row)).toThrow(
      /filled_value is the number 0.1, not a decimal/,
    );
  });

  it('writes accented and CJK names as they are', () => {
    expect(cells(orderRow({ strategy_name: 'Stratégie défensive' })).strategy_name).toBe(
      'Stratégie défensive',
    );
    expect(cells(orderRow({ strategy_name: '日本株 バリュー 🚀' })).strategy_name).toBe(
      '日本株 バリュー 🚀',
    );
    const bytes = Buffer.from(formatOrderReportRow(orderRow({ symbol: 'É' })), 'utf8');
    expect(bytes.includes(Buffer.from([0xc3, 0x89]))).toBe(true);
  });

  it('reuses nothing stale when consecutive orders change strategy or version cells', () => {
    const first = cells(orderRow());
    const second = cells(orderRow({ strategy_name: 'Dividend growth' }));
    const third = cells(orderRow({ version_status: null }));
    expect([first.strategy_name, second.strategy_name, third.strategy_name]).toEqual([
      'Global equity core',
      'Dividend growth',
      'Global equity core',
    ]);
    expect(third.version_status).toBe('');
  });
});
