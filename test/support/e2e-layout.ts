import type { Page } from 'playwright-core';

/** Where things are on the page, in CSS pixels, for the layout checks of the e2e tests. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width - 0.5 &&
  b.x < a.x + a.width - 0.5 &&
  a.y < b.y + b.height - 0.5 &&
  b.y < a.y + a.height - 0.5;

/** Inside `outer` (a box, or a window from 0,0), with half a pixel for rounding. */
export const within = (b: Box, outer: Box | { width: number; height: number }): boolean => {
  const o = { x: 0, y: 0, ...outer };
  return (
    b.x >= o.x - 0.5 &&
    b.y >= o.y - 0.5 &&
    b.x + b.width <= o.x + o.width + 0.5 &&
    b.y + b.height <= o.y + o.height + 0.5
  );
};

export function layoutOf(page: Page) {
  return {
    /** True when the main area scrolls sideways: something is wider than the window allows. */
    sideways: () =>
      page.evaluate(() => {
        const main = document.querySelector<HTMLElement>('main .content')!;
        return main.scrollWidth > main.clientWidth + 1;
      }),

    /** The status bar's items in order: name, box, and whether their text is cut. */
    statusItems: () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('footer [data-status-item]')].map((el) => {
          const r = el.getBoundingClientRect();
          return {
            name: el.dataset.statusItem!,
            box: { x: r.x, y: r.y, width: r.width, height: r.height },
            clipped: el.scrollWidth > el.clientWidth + 1 || r.width < 8,
          };
        }),
      ),

    /**
     * The draft grid: its scroller, its column headers, and how many draft rows a manager sees
     * whole (inside the scroller under its header, inside the window, above the sticky totals).
     */
    draftGrid: () =>
      page.evaluate(() => {
        const box = (el: Element) => {
          const r = el.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        };
        const table = document.querySelector('[role="grid"][aria-label="Draft rows"]')!;
        const scroller = table.parentElement!;
        const s = scroller.getBoundingClientRect();
        const head = table.querySelector('thead')!.getBoundingClientRect();
        const totals = document.querySelector('[aria-label="Draft totals and problems"]');
        const top = Math.max(s.top, head.bottom, 0);
        const bottom = Math.min(
          s.bottom,
          window.innerHeight,
          totals ? totals.getBoundingClientRect().top : Infinity,
        );
        const rows = [...table.querySelectorAll('tbody:not(.left-out) tr[data-key]')];
        const rowsInView = rows.filter((tr) => {
          const r = tr.getBoundingClientRect();
          return r.top >= top - 0.5 && r.bottom <= bottom + 0.5;
        }).length;
        const header: Record<string, ReturnType<typeof box>> = {};
        for (const th of table.querySelectorAll('thead th'))
          header[th.textContent!.trim() || '(none)'] = box(th);
        // Headless Chromium hides scrollbars; a window on Windows or Linux shows a 17 px one.
        const roomForScrollbar =
          scroller.clientWidth - parseFloat(getComputedStyle(table).minWidth || '0') >= 17;
        const clippedHeaders = [...table.querySelectorAll<HTMLElement>('thead th')]
          .filter((th) => th.scrollWidth > th.clientWidth + 1)
          .map((th) => th.textContent!.trim());
        return { scroller: box(scroller), header, rowsInView, roomForScrollbar, clippedHeaders };
      }),

    /** The version detail: its header bar, and the reasons cut short while the table has room. */
    versionDetail: () =>
      page.evaluate(() => {
        const title = document.getElementById('version-title')!;
        const bar = title.parentElement!;
        const facts = document.querySelector<HTMLElement>('dl.facts')!;
        const reasons = [...document.querySelectorAll<HTMLElement>('td.reason')].filter(
          (td) => td.scrollWidth > td.clientWidth + 1,
        );
        return {
          headerClipped:
            title.scrollWidth > title.clientWidth + 1 || bar.scrollWidth > bar.clientWidth + 1,
          headerRight: Math.max(...[...bar.children].map((c) => c.getBoundingClientRect().right)),
          // The facts under the header (origin, times, cash): each whole inside the pane.
          factsPastPane: [...facts.children]
            .filter(
              (c) =>
                c.getBoundingClientRect().right >
                facts.parentElement!.getBoundingClientRect().right + 1,
            )
            .map((c) => c.textContent!.trim()),
          truncatedReasons: reasons.map(
            (td) => `${td.textContent!.trim()} (${td.scrollWidth} px in ${td.clientWidth} px)`,
          ),
        };
      }),
  };
}
