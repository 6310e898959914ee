import type { Locator } from 'playwright-core';
import type { Version } from '../../shared/domain/resources';
import { syntheticVersion } from './e2e-versions-synthetic';

/**
 * The readable-tables walk's data and measures: a version whose numbers are as long as the
 * service may send (many digits each side of the point, some whole), and where the decimal
 * points of a table's numeric column stand on screen.
 */

/** A version of `count` orders with long, uneven decimals and six- and seven-digit values. */
export function longDecimalsVersion(strategyId: string, count: number): Version {
  const version = syntheticVersion(strategyId, count);
  const fractions = ['398628123', '5', '', '25', '000001'];
  version.orders = version.orders!.map((o, i) => {
    const fraction = fractions[i % fractions.length]!;
    const quantity = fraction ? `${(i % 900) + 100}.${fraction}` : `${(i % 9000) + 1000}`;
    const filled = o.status === 'FILLED';
    return {
      ...o,
      date: `2026-11-${String((i % 28) + 1).padStart(2, '0')}`,
      order_quantity: quantity,
      order_value: i % 4 === 0 ? `${1_500_000 + i}.00` : `${150_000 + i}.5`,
      filled_quantity: filled ? quantity : o.filled_quantity,
      filled_value: filled ? `${150_000 + i}.125` : o.filled_value,
      filled_average_price: filled ? (i % 2 === 0 ? '1234.5678' : '12') : null,
    };
  });
  version.positions = version.positions!.map((p, i) => ({
    ...p,
    weight: i % 2 === 0 ? '10.123456' : '9.5',
  }));
  version.cash_weight = '5.130128';
  return version;
}

/**
 * Where each numeric column of a table puts its decimal points on screen (x in px), row by row:
 * the start of the "." when a number has one, else the end of its digits (the point it would
 * have). Rows drawn hidden to size the columns are left out; a cell without a number is null.
 */
export function decimalPoints(table: Locator): Promise<Record<string, (number | null)[]>> {
  return table.evaluate((t) => {
    const headers = [...t.querySelectorAll('thead tr:first-child th')];
    const columns: Record<string, (number | null)[]> = {};
    headers.forEach((th, i) => {
      if (!th.classList.contains('num')) return;
      const name = th.textContent!.trim();
      columns[name] = [...t.querySelectorAll('tbody tr:not([aria-hidden])')]
        .map((tr) => tr.children[i])
        .filter((td): td is HTMLElement => td instanceof HTMLElement)
        .map((td) => {
          const text = [...td.querySelectorAll('[data-pad], .figure')]
            .map((el) => el.firstChild)
            .find((n): n is Text => n instanceof Text);
          if (!text || !/\d/.test(text.data)) return null;
          const range = document.createRange();
          const dot = text.data.indexOf('.');
          range.setStart(text, dot === -1 ? text.data.length : dot);
          range.setEnd(text, dot === -1 ? text.data.length : dot + 1);
          const box = range.getBoundingClientRect();
          return Math.round((dot === -1 ? box.right : box.left) * 10) / 10;
        });
    });
    return columns;
  });
}

/** The decimal points of one column that stand apart from the first (more than half a px). */
export function misaligned(points: (number | null)[]): number[] {
  const xs = points.filter((x): x is number => x !== null);
  return xs.filter((x) => Math.abs(x - xs[0]!) > 0.5);
}

/** Scrolls a table's scroller to its far right, and says where its sticky symbol cells are. */
export async function scrollToFarRight(table: Locator) {
  return table.evaluate((t) => {
    const scroller = t.parentElement!;
    scroller.scrollLeft = scroller.scrollWidth;
    const box = scroller.getBoundingClientRect();
    const symbols = [...t.querySelectorAll<HTMLElement>('tbody tr:not([aria-hidden]) td.sticky')];
    return {
      scrolled: scroller.scrollLeft,
      symbolsInView: symbols.every((td) => {
        const r = td.getBoundingClientRect();
        return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
      }),
      symbolCount: symbols.length,
      // The element drawn where the first symbol stands: the symbol itself, not a cell under it.
      onTop: (() => {
        const first = symbols[0];
        if (!first) return false;
        const r = first.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit === first || first.contains(hit);
      })(),
    };
  });
}
