/**
 * A modal <dialog>'s keyboard manners, for every dialog of the app (`use:modal`):
 * - Tab and Shift+Tab go round the dialog's own controls; focus never leaves it while it is open
 *   (a native modal lets it out to the page's end once, then back);
 * - when it closes (Escape, a button, or its removal), focus goes back to the control that opened
 *   it. The opener is named by the owner when the focus cannot tell it: a button that disables
 *   itself while it prepares the dialog has lost the focus by the time the dialog opens;
 * - its owner hears it closed (`onClosed`) only while it is closed: the browser tells a close a
 *   task later, so a dialog closed and opened again at once (a confirmation read afresh) hears a
 *   close that is no longer true, and must stay open, its focus inside.
 */
export interface ModalOptions {
  /** The control that opens the dialog; by default whatever has the focus as it opens. */
  opener?: () => HTMLElement | null | undefined;
  /** The dialog closed (Escape, a button, `close()`), and has not opened again since. */
  onClosed?: () => void;
}

const FOCUSABLE =
  'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** The dialog's controls a Tab can reach, in order. */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) =>
      !(el as HTMLButtonElement).disabled &&
      el.tabIndex >= 0 &&
      !(el instanceof HTMLInputElement && el.type === 'hidden') &&
      el.getClientRects().length > 0,
  );
}

export function modal(dialog: HTMLDialogElement, options: ModalOptions = {}) {
  let current = options;
  let opener: HTMLElement | null = null;

  const onToggle = (event: Event) => {
    if ((event as ToggleEvent).newState !== 'open') return;
    const active = document.activeElement;
    opener = current.opener?.() ?? (active instanceof HTMLElement ? active : null);
  };

  const onClose = () => {
    // Opened again since it closed: this close is stale.
    if (dialog.open) return;
    giveFocusBack();
    current.onClosed?.();
  };

  const giveFocusBack = () => {
    const to = opener;
    opener = null;
    if (!to || !to.isConnected || (to as HTMLButtonElement).disabled) return;
    to.focus();
  };

  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
    const stops = tabStops(dialog);
    if (stops.length === 0) {
      event.preventDefault();
      return;
    }
    const first = stops[0]!;
    const last = stops[stops.length - 1]!;
    const at = document.activeElement;
    const outside = !(at instanceof Node) || !dialog.contains(at) || at === dialog;
    if (event.shiftKey && (at === first || outside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (at === last || outside)) {
      event.preventDefault();
      first.focus();
    }
  };

  dialog.addEventListener('beforetoggle', onToggle);
  dialog.addEventListener('close', onClose);
  dialog.addEventListener('keydown', onKey);
  return {
    update(next: ModalOptions = {}) {
      current = next;
    },
    destroy() {
      dialog.removeEventListener('beforetoggle', onToggle);
      dialog.removeEventListener('close', onClose);
      dialog.removeEventListener('keydown', onKey);
      // Removed while open (its owner went away): once it is out of the page, focus goes back.
      if (opener) queueMicrotask(giveFocusBack);
    },
  };
}
