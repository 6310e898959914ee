import { describe, expect, it } from 'vitest';
import { deskEvent, type DeskEvent } from '../../../shared/contract';
import {
  LEAVE_UNSAVED_QUESTION,
  leavesAnyway,
  menuCommandEvent,
  menuTemplate,
  startupFailureMessage,
  suggestedExportName,
  versionEndedNotice,
  withCsvExtension,
  type MenuItemSpec,
} from '../../../electron/shell/desktop';
import { dataFolderFailure } from '../../../electron/core/data-folder/unwritable';
import { journalChanged } from '../../support/desk-events';

const ids = {
  profileId: '3f1e8a56-0a8e-4c3c-9a57-6d0b7f1f4a10',
  strategyId: 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21',
  versionId: '0b8f9a8e-1d2c-4b5a-9e7f-123456789abc',
};
const ended = (status: 'COMPLETE' | 'FAILED' | 'CANCELLED'): DeskEvent => ({
  type: 'version-status-changed',
  ...ids,
  previousStatus: 'IN_PROGRESS',
  status,
  ended: true,
  version: {
    id: ids.versionId,
    strategyId: ids.strategyId,
    status,
    cashWeight: '0',
    oldCashWeight: '0',
    scheduledFor: null,
    executedAt: '2026-01-01T00:00:00.000Z',
    insertedAt: '2026-01-01T00:00:00.000Z',
    origin: 'created',
    syncedAt: '2026-01-01T00:00:05.000Z',
  },
  strategy: null,
  appStatus: { runningVersions: 0, lastSyncAt: null, needsAttention: 0 },
  settledStrategy: null,
});

describe('the desktop notification when a version ends', () => {
  it.each([
    ['COMPLETE', 'Rebalance complete', /Core Equity: every order/],
    ['FAILED', 'Rebalance failed', /Core Equity: an order could not be filled/],
    ['CANCELLED', 'Rebalance cancelled', /Core Equity: the version was cancelled/],
  ] as const)('says %s plainly', (status, title, body) => {
    const notice = versionEndedNotice(ended(status), 'Core Equity');
    expect(notice?.title).toBe(title);
    expect(notice?.body).toMatch(body);
  });

  it('still notifies when the strategy name is unknown', () => {
    expect(versionEndedNotice(ended('COMPLETE'), null)?.body).toMatch(/^A strategy: /);
  });

  it('stays quiet for steps that are not an end, and for other events', () => {
    const step: DeskEvent = {
      ...ended('COMPLETE'),
      status: 'IN_PROGRESS',
      ended: false,
    } as DeskEvent;
    expect(versionEndedNotice(step, 'Core Equity')).toBeNull();
    expect(versionEndedNotice(journalChanged(ids.profileId), 'x')).toBeNull();
  });
});

describe('exports', () => {
  it('proposes a dated CSV name and adds .csv when none was typed', () => {
    expect(suggestedExportName(new Date('2025-03-04T23:59:00Z'))).toBe(
      'strategy-desk-orders-2025-03-04.csv',
    );
    expect(withCsvExtension('/home/m/orders')).toBe('/home/m/orders.csv');
    expect(withCsvExtension('/home/m/orders.csv')).toBe('/home/m/orders.csv');
    expect(withCsvExtension('/home/m.dir/orders')).toBe('/home/m.dir/orders.csv');
    expect(withCsvExtension('C:\\Users\\m\\orders.txt')).toBe('C:\\Users\\m\\orders.txt');
  });

  it('carries "Export CSV…" to the renderer as a contract event', () => {
    expect(deskEvent.safeParse({ type: 'menu-command', command: 'export-csv' }).success).toBe(true);
    expect(menuCommandEvent('export-csv')).toEqual({ type: 'menu-command', command: 'export-csv' });
  });
});

describe('the native menu', () => {
  const flatten = (items: MenuItemSpec[]): MenuItemSpec[] =>
    items.flatMap((item) => [item, ...flatten(item.submenu ?? [])]);
  const labels = (items: MenuItemSpec[]) => items.map((i) => i.label ?? i.role);

  it('has File, Edit, View and Help with the usual shortcuts', () => {
    const menu = menuTemplate({
      isMac: false,
      isDev: false,
      exportEnabled: true,
      onExport: () => {},
    });
    expect(labels(menu)).toEqual(['&File', '&Edit', '&View', '&Help']);
    const items = flatten(menu);
    const byRole = (role: string) => items.find((i) => i.role === role);
    expect(items.find((i) => i.label === 'Export CSV…')?.accelerator).toBe('CmdOrCtrl+Shift+E');
    expect(byRole('quit')?.accelerator).toBe('Ctrl+Q');
    expect(byRole('undo')?.accelerator).toBe('CmdOrCtrl+Z');
    expect(byRole('redo')?.accelerator).toBe('Ctrl+Shift+Z');
    for (const role of [
      'cut',
      'copy',
      'paste',
      'selectAll',
      'zoomIn',
      'zoomOut',
      'resetZoom',
      'about',
    ]) {
      expect(byRole(role), role).toBeDefined();
    }
  });

  it('offers reload and devtools only while developing', () => {
    const roles = (isDev: boolean) =>
      flatten(menuTemplate({ isMac: false, isDev, exportEnabled: true, onExport: () => {} })).map(
        (i) => i.role,
      );
    expect(roles(false)).not.toContain('reload');
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(true)).toEqual(
      expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']),
    );
  });

  it('follows macOS habits there: the app menu, Cmd+Shift+Z, Close in File', () => {
    const menu = menuTemplate({
      isMac: true,
      isDev: false,
      exportEnabled: false,
      onExport: () => {},
    });
    expect(menu[0]?.role).toBe('appMenu');
    const items = flatten(menu);
    expect(items.find((i) => i.role === 'redo')?.accelerator).toBe('Cmd+Shift+Z');
    expect(items.some((i) => i.role === 'close')).toBe(true);
    expect(items.find((i) => i.label === 'Export CSV…')?.enabled).toBe(false);
  });

  it('runs the export when its item is clicked', () => {
    let clicks = 0;
    const menu = menuTemplate({
      isMac: false,
      isDev: false,
      exportEnabled: true,
      onExport: () => clicks++,
    });
    flatten(menu)
      .find((i) => i.label === 'Export CSV…')
      ?.click?.();
    expect(clicks).toBe(1);
  });
});

describe('start-up failures', () => {
  it('tells the manager how to fix a database module built for Node', () => {
    const error = new Error(
      "The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115.",
    );
    expect(startupFailureMessage(error, '/data')).toMatch(/scripts\/build-electron\.ts --native/);
  });

  it('shows a refusal the app explains in its own words, as the browser host does', () => {
    const refusal = dataFolderFailure(
      Object.assign(new Error("EROFS: read-only file system, open '/data/x'"), { code: 'EROFS' }),
      '/data',
    );
    expect(startupFailureMessage(refusal, '/data')).toBe(refusal!.message);
    expect(refusal!.message).toMatch(/^Strategy desk cannot write to its data folder \/data: /);
  });

  it('names the data folder otherwise', () => {
    expect(startupFailureMessage(new Error('disk full'), '/data')).toBe(
      'Strategy desk could not open its data in /data: disk full',
    );
  });
});

describe('the question when the page holds a reload or close', () => {
  it('leaves only on Leave; Stay is the default and what Escape answers', () => {
    const leave = LEAVE_UNSAVED_QUESTION.buttons.indexOf('Leave');
    const stay = LEAVE_UNSAVED_QUESTION.buttons.indexOf('Stay');
    expect(leavesAnyway(leave)).toBe(true);
    expect(leavesAnyway(stay)).toBe(false);
    expect(LEAVE_UNSAVED_QUESTION.defaultId).toBe(stay);
    expect(LEAVE_UNSAVED_QUESTION.cancelId).toBe(stay);
    expect(LEAVE_UNSAVED_QUESTION.message).toBe('Leave with unsaved changes?');
  });
});
