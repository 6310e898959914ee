import type { DeskEvent } from '../../shared/contract';
import { PRODUCT_NAME } from '../transport/app-identity';
import { validEvent } from '../transport/dispatch';
import { startRefusalMessage } from '../transport/start-refusal';
import type { LinkQuestion } from './links';

/** The desktop notification for a version that ended, or null when the event is not an end. */
export function versionEndedNotice(
  event: DeskEvent,
  strategyName: string | null,
): { title: string; body: string } | null {
  if (event.type !== 'version-status-changed' || !event.ended) return null;
  const who = strategyName ?? 'A strategy';
  const titles: Record<string, string> = {
    COMPLETE: 'Rebalance complete',
    FAILED: 'Rebalance failed',
    CANCELLED: 'Rebalance cancelled',
  };
  const title = titles[event.status ?? ''] ?? 'Rebalance ended';
  const detail: Record<string, string> = {
    COMPLETE: 'every order of the new version has been handled.',
    FAILED: 'an order could not be filled; the strategy may now be liquidate-only.',
    CANCELLED: 'the version was cancelled before its orders were all handled.',
  };
  return { title, body: `${who}: ${detail[event.status ?? ''] ?? `status ${event.status}.`}` };
}

/** The file name the save dialog proposes: dated, so exports of different days do not collide. */
export function suggestedExportName(now: Date): string {
  return `strategy-desk-orders-${now.toISOString().slice(0, 10)}.csv`;
}

/** A path chosen in the save dialog, with `.csv` added when the manager typed no extension. */
export function withCsvExtension(path: string): string {
  return /\.[^./\\]+$/.test(path) ? path : `${path}.csv`;
}

/**
 * The page held a reload or the window's close (its `beforeunload`: a model's unsaved edits, a
 * draft still saving): the question Electron does not ask by itself, Stay the default.
 */
export const LEAVE_UNSAVED_QUESTION: Readonly<LinkQuestion> = {
  type: 'question',
  title: PRODUCT_NAME,
  message: 'Leave with unsaved changes?',
  detail: 'What the page has not saved yet (a model’s edits, a draft’s last change) is lost.',
  buttons: ['Leave', 'Stay'],
  defaultId: 1,
  cancelId: 1,
  noLink: true,
};

/** Whether the answer to LEAVE_UNSAVED_QUESTION lets the page go. */
export function leavesAnyway(response: number): boolean {
  return response === 0;
}

/** Commands the native menu sends to the renderer (as a contract event, when it has one). */
export type MenuCommand = 'export-csv';

/**
 * The event the menu's "Export CSV…" pushes to the renderer. It only reaches the renderer when
 * the contract's event schema knows it; otherwise the menu item is shown disabled.
 */
export function menuCommandEvent(command: MenuCommand): DeskEvent | null {
  return validEvent({ type: 'menu-command', command });
}

/** A menu item in Electron's template shape, without importing electron. */
export interface MenuItemSpec {
  label?: string;
  role?: string;
  type?: 'separator' | 'submenu' | 'normal';
  accelerator?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItemSpec[];
}

export interface MenuOptions {
  isMac: boolean;
  isDev: boolean;
  exportEnabled: boolean;
  onExport: () => void;
}

/** The native menu: File, Edit, View, Help, with the platform's usual shortcuts. */
export function menuTemplate(options: MenuOptions): MenuItemSpec[] {
  const separator: MenuItemSpec = { type: 'separator' };
  const file: MenuItemSpec = {
    label: '&File',
    submenu: [
      {
        label: 'Export CSV…',
        accelerator: 'CmdOrCtrl+Shift+E',
        enabled: options.exportEnabled,
        click: options.onExport,
      },
      separator,
      options.isMac ? { role: 'close' } : { role: 'quit', label: 'Quit', accelerator: 'Ctrl+Q' },
    ],
  };
  const edit: MenuItemSpec = {
    label: '&Edit',
    submenu: [
      { role: 'undo', accelerator: 'CmdOrCtrl+Z' },
      { role: 'redo', accelerator: options.isMac ? 'Cmd+Shift+Z' : 'Ctrl+Shift+Z' },
      separator,
      { role: 'cut', accelerator: 'CmdOrCtrl+X' },
      { role: 'copy', accelerator: 'CmdOrCtrl+C' },
      { role: 'paste', accelerator: 'CmdOrCtrl+V' },
      { role: 'selectAll', accelerator: 'CmdOrCtrl+A' },
    ],
  };
  const view: MenuItemSpec = {
    label: '&View',
    submenu: [
      // Reload and devtools only while developing: a reload mid-execution confuses a manager.
      ...(options.isDev
        ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator]
        : []),
      { role: 'resetZoom', accelerator: 'CmdOrCtrl+0' },
      { role: 'zoomIn', accelerator: 'CmdOrCtrl+=' },
      { role: 'zoomOut', accelerator: 'CmdOrCtrl+-' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemSpec = {
    label: '&Help',
    role: 'help',
    submenu: [{ role: 'about', label: `About ${PRODUCT_NAME}` }],
  };
  const appMenu: MenuItemSpec[] = options.isMac ? [{ role: 'appMenu' }] : [];
  return [...appMenu, file, edit, view, help];
}

/** What the manager reads when the app cannot open its data, with the step that fixes it. */
export function startupFailureMessage(error: unknown, dataDir: string): string {
  const refusal = startRefusalMessage(error);
  if (refusal !== null) return refusal;
  const message = error instanceof Error ? error.message : String(error);
  if (/NODE_MODULE_VERSION|was compiled against a different Node\.js version/.test(message)) {
    return (
      'The database module in this copy of the app was built for Node.js, not for Electron. ' +
      'Build it for Electron once with "npx tsx scripts/build-electron.ts --native", then start ' +
      'the app again.'
    );
  }
  return `Strategy desk could not open its data in ${dataDir}: ${message}`;
}
