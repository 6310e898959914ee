/**
 * The slice of a long list that is in view: only these rows are in the DOM; spacers of the
 * right height stand for the rest, so the scrollbar and aria-rowcount stay true to the data.
 */
export type VirtualColumn = {
  id: string;
  label: string;
  /**
   * 'content': as wide as its widest cell (the table's `sizer` row holds the widest of all rows,
   * so the width holds while rows scroll); 'fill': at least its content, and takes what is left;
   * a CSS length: a minimum (a column of marks or buttons).
   */
  width: 'content' | 'fill' | `${number}px`;
  numeric?: boolean;
  /** Stays in view when the table scrolls sideways (the row's cell carries the `sticky` class). */
  sticky?: boolean;
  /** The label is for screen readers only (a column of marks or buttons). */
  hiddenLabel?: boolean;
  /** A class for the column's header cell. */
  headerClass?: string;
};

export interface VisibleWindow {
  /** First row rendered (inclusive). */
  start: number;
  /** Row after the last one rendered (exclusive). */
  end: number;
  /** Height (px) standing for the rows above `start`. */
  padTop: number;
  /** Height (px) standing for the rows from `end` on. */
  padBottom: number;
}

export function visibleWindow(input: {
  count: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  /** Extra rows rendered above and below, so a fast scroll never shows a blank. */
  overscan?: number;
}): VisibleWindow {
  const { count, rowHeight, overscan = 8 } = input;
  const scrollTop = Math.max(0, input.scrollTop);
  const viewportHeight = Math.max(0, input.viewportHeight);
  const end = Math.min(count, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  // A filter may shrink the list under a deep scroll: keep at least the last screenful.
  const start = Math.max(0, Math.min(Math.floor(scrollTop / rowHeight) - overscan, end - 1));
  return {
    start,
    end: Math.max(start, end),
    padTop: start * rowHeight,
    padBottom: Math.max(0, count - Math.max(start, end)) * rowHeight,
  };
}

/** Where a key press moves the scroll position of a list, or null when the key is not ours. */
export function scrollForKey(
  key: string,
  current: { scrollTop: number; viewportHeight: number; rowHeight: number; count: number },
): number | null {
  const { scrollTop, viewportHeight, rowHeight, count } = current;
  const max = Math.max(0, count * rowHeight - viewportHeight + rowHeight);
  const page = Math.max(rowHeight, viewportHeight - 2 * rowHeight);
  const to = (y: number) => Math.min(max, Math.max(0, y));
  switch (key) {
    case 'ArrowDown':
      return to(scrollTop + rowHeight);
    case 'ArrowUp':
      return to(scrollTop - rowHeight);
    case 'PageDown':
    case ' ':
      return to(scrollTop + page);
    case 'PageUp':
      return to(scrollTop - page);
    case 'Home':
      return 0;
    case 'End':
      return max;
    default:
      return null;
  }
}
