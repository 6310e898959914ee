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

/** A text cut short on screen: where it is, what it says, and how much of it shows. */
export interface CutText {
  where: string;
  text: string;
  needs: number;
  has: number;
}

/** A scroller whose content is wider or taller than it: whether it shows its scrollbar. */
export interface Scroller {
  name: string;
  sideways: boolean;
  /** The thickness of its horizontal scrollbar (px); 0 when none is drawn. */
  scrollbarHeight: number;
  /** The thickness of its vertical scrollbar (px). */
  scrollbarWidth: number;
}

export function layoutOf(page: Page) {
  return {
    /**
     * Every text cut short anywhere on the page (dialogs included): each table cell and header,
     * and anything drawn with an ellipsis, whose content is wider than its box. A sentence allowed
     * to end in an ellipsis (a cell marked `prose`, its whole text on hover) does not count, nor
     * do the hidden rows that size a table's columns.
     */
    cutText: () =>
      page.evaluate(() => {
        const cut: { where: string; text: string; needs: number; has: number }[] = [];
        const visible = (el: Element) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && !el.closest('[aria-hidden="true"]');
        };
        const where = (el: Element) => {
          const table = el.closest('table');
          const name =
            table?.getAttribute('aria-label') ??
            (table?.getAttribute('aria-labelledby')
              ? document.getElementById(table.getAttribute('aria-labelledby')!)?.textContent
              : null) ??
            table?.querySelector('caption')?.textContent ??
            el.className;
          return `${el.tagName.toLowerCase()} in ${String(name).trim().replace(/\s+/g, ' ')}`;
        };
        // Cells, the grid's inputs (a weight wider than its box scrolls inside it), and whatever
        // draws an ellipsis; not the file input hidden under "Import CSV…".
        const candidates = new Set<HTMLElement>(document.querySelectorAll('td, th, input.cell'));
        for (const el of document.querySelectorAll<HTMLElement>('body *'))
          if (getComputedStyle(el).textOverflow === 'ellipsis' && !(el instanceof HTMLInputElement))
            candidates.add(el);
        for (const el of candidates) {
          if (el.closest('.prose') || !visible(el)) continue;
          if (el.scrollWidth > el.clientWidth + 1)
            cut.push({
              where: where(el),
              text: (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 80),
              needs: el.scrollWidth,
              has: el.clientWidth,
            });
        }
        return cut;
      }),

    /**
     * Every scroller of the page whose content overflows it, with the scrollbars it draws: a
     * table wider than its area must show that it scrolls sideways.
     */
    overflowingScrollers: () =>
      page.evaluate(() => {
        const out: {
          name: string;
          sideways: boolean;
          scrollbarHeight: number;
          scrollbarWidth: number;
        }[] = [];
        for (const el of document.querySelectorAll<HTMLElement>('body *')) {
          const style = getComputedStyle(el);
          const scrolls = (v: string) => v === 'auto' || v === 'scroll';
          if (!scrolls(style.overflowX) && !scrolls(style.overflowY)) continue;
          const sideways = el.scrollWidth > el.clientWidth + 1;
          const down = el.scrollHeight > el.clientHeight + 1;
          if (!sideways && !down) continue;
          const borders = (a: string, b: string) =>
            parseFloat(style.getPropertyValue(a)) + parseFloat(style.getPropertyValue(b));
          out.push({
            name:
              el.getAttribute('aria-label') ??
              el.querySelector('table')?.getAttribute('aria-label') ??
              el.className,
            sideways,
            scrollbarHeight: sideways
              ? el.offsetHeight -
                el.clientHeight -
                borders('border-top-width', 'border-bottom-width')
              : 0,
            scrollbarWidth: down
              ? el.offsetWidth - el.clientWidth - borders('border-left-width', 'border-right-width')
              : 0,
          });
        }
        return out;
      }),

    /**
     * True when the main area, or the page itself, scrolls sideways: something is wider than the
     * window allows (a table too wide scrolls inside its own area instead).
     */
    sideways: () =>
      page.evaluate(() => {
        const main = document.querySelector<HTMLElement>('main .content')!;
        const root = document.documentElement;
        return main.scrollWidth > main.clientWidth + 1 || root.scrollWidth > root.clientWidth + 1;
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
        // Where the scrollbar is drawn, the columns fit beside it; where headless Chromium hides
        // it, they leave the 17 px a window on Windows or Linux takes.
        const style = getComputedStyle(scroller);
        const drawn =
          scroller.offsetWidth -
          scroller.clientWidth -
          parseFloat(style.borderLeftWidth) -
          parseFloat(style.borderRightWidth);
        const roomForScrollbar =
          drawn > 0
            ? (table as HTMLElement).offsetWidth <= scroller.clientWidth + 0.5
            : scroller.clientWidth - parseFloat(getComputedStyle(table).minWidth || '0') >= 17;
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
