import { flushSync, mount, unmount } from 'svelte';
import type { Order } from '../../../shared/domain/resources';
import OrdersTable from '../../../renderer/src/versions/OrdersTable.svelte';
import '../../../renderer/src/app.css';

/** The bench page: renders the real OrdersTable with n synthetic orders and times it. */

function makeOrders(n: number): Order[] {
  const statuses = ['FILLED', 'FILLED', 'FILLED', 'FAILED', 'IGNORED', 'SENT'] as const;
  const orders: Order[] = [];
  for (let i = 0; i < n; i++) {
    const status = statuses[i % statuses.length]!;
    const filled = status === 'FILLED';
    const cents = String(i % 100).padStart(2, '0');
    orders.push({
      id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      date: '2025-03-03',
      side: i % 3 === 0 ? 'SELL' : 'BUY',
      symbol: ['AAPL', 'MSFT', 'NVDA', 'SPY', 'KO'][i % 5]!,
      status,
      status_reason:
        status === 'FAILED' ? 'Trading is halted; the order could not be filled' : null,
      order_quantity: `${(i % 500) + 1}.125`,
      order_value: `${(i * 7) % 10000}.${cents}`,
      filled_quantity: filled ? `${(i % 500) + 1}.125` : null,
      filled_value: filled ? `${(i * 7) % 10000}.${cents}` : null,
      filled_average_price: filled ? '227.48' : null,
      inserted_at: '2025-03-03T10:00:00.000000Z',
      updated_at: '2025-03-03T10:05:00.000000Z',
    });
  }
  return orders;
}

const nextPaint = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

declare global {
  interface Window {
    renderOrders: (n: number) => Promise<number>;
  }
}

/** Resolves once the buy and sell totals are shown (the table stops being busy adding up). */
function totalsShown(target: HTMLElement): Promise<void> {
  const done = () => target.querySelector('table.totals[aria-busy="false"]') !== null;
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!done()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(target, { attributes: true, subtree: true, attributeFilter: ['aria-busy'] });
  });
}

/**
 * From the data in hand to the table finished, in ms: its rows painted and the buy and sell
 * totals shown (the totals of 10,000 orders are added up in slices after the first paint), then
 * the frame that shows them.
 */
window.renderOrders = async (n: number) => {
  const orders = makeOrders(n);
  const target = document.getElementById('app')!;
  await nextPaint();
  const started = performance.now();
  const table = mount(OrdersTable, { target, props: { orders, label: 'Orders' } });
  flushSync();
  await totalsShown(target);
  await nextPaint();
  const elapsed = performance.now() - started;
  if (target.querySelectorAll('tbody tr.row').length === 0) throw new Error('no rows rendered');
  const totals = target.querySelector('table.totals tbody')!.textContent ?? '';
  if (!/Buys\s*[\d,]+\s*\d/.test(totals)) throw new Error(`no totals shown: ${totals}`);
  await unmount(table);
  return elapsed;
};
document.body.dataset.ready = 'true';
