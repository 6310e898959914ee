/**
 * The sandbox's universe: the symbols it recognizes and their (fixed) prices.
 * `HALTED` is recognized but its orders never fill, to exercise failure paths.
 */
export const HALTED_SYMBOL = 'HALTED';

export const PRICES: Readonly<Record<string, string>> = Object.freeze({
  AAPL: '227.48',
  MSFT: '415.26',
  GOOGL: '168.39',
  AMZN: '186.51',
  META: '512.73',
  NVDA: '121.44',
  TSLA: '248.98',
  'BRK.B': '452.17',
  JPM: '211.36',
  JNJ: '158.92',
  V: '276.45',
  PG: '168.04',
  XOM: '117.62',
  UNH: '569.77',
  HD: '389.15',
  KO: '69.83',
  PEP: '171.25',
  ABBV: '193.58',
  MRK: '112.47',
  COST: '868.31',
  WMT: '79.54',
  CVX: '152.86',
  LLY: '902.14',
  AVGO: '165.29',
  ORCL: '139.72',
  SPY: '562.31',
  QQQ: '478.92',
  VTI: '276.14',
  VOO: '516.88',
  SCHD: '27.93',
  VYM: '126.48',
  IWM: '219.34',
  AGG: '100.87',
  TLT: '97.66',
  BND: '74.51',
  [HALTED_SYMBOL]: '10.00',
});

/** Symbols are matched exactly as sent: `aapl` is not `AAPL`. */
export function isRecognizedSymbol(symbol: string): boolean {
  return Object.hasOwn(PRICES, symbol);
}

export function priceOf(symbol: string): string {
  const price = PRICES[symbol];
  if (price === undefined) throw new RangeError(`no price for ${symbol}`);
  return price;
}
