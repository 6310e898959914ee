import {
  app,
  BrowserWindow,
  dialog,
  Menu,
  Notification,
  protocol,
  screen,
  session,
  shell,
  type MenuItemConstructorOptions,
  type WebContents,
} from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DeskEvent } from '../shared/contract';
import { createDesk, type Desk } from './core/desk';
import { openSecretStore } from './core/secrets';
import { announcedSandbox } from './sandbox/embedded';
import { registerDeskIpc, type DeskIpc } from './ipc';
import {
  APP_ENTRY_URL,
  APP_ID,
  APP_SCHEME,
  DATA_DIR_NAME,
  PRODUCT_NAME,
} from './transport/app-identity';
import { answerAssetRequest } from './transport/assets';
import {
  LEAVE_UNSAVED_QUESTION,
  leavesAnyway,
  menuCommandEvent,
  menuTemplate,
  startupFailureMessage,
  suggestedExportName,
  versionEndedNotice,
  withCsvExtension,
} from './shell/desktop';
import { dataDirArgument } from './shell/launch';
import { appLayout, sqliteBindingFor } from './transport/paths';
import { externalLinks } from './shell/links';
import { HARDENED_WEB_PREFERENCES, isAllowedRequest, permissionPolicy } from './shell/security';
import {
  MIN_SIZE,
  WINDOW_STATE_FILE,
  loadWindowState,
  placeWindow,
  saveWindowState,
} from './shell/window-state';

/**
 * The Electron shell: lifecycle, the one window, and the hardening around it. Everything that can
 * be decided without Electron is decided in ./shell (unit tested under Node); this file wires it.
 */

const layout = appLayout(join(__dirname, '..', '..'));
const isDev = !app.isPackaged;
let mainWindow: BrowserWindow | null = null;
let desk: Desk | null = null;
let ipc: DeskIpc | null = null;

// Before ready: every renderer sandboxed, our scheme standard and secure (a real origin), the
// data folder shared with the browser host.
app.enableSandbox();
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);
app.setName(PRODUCT_NAME);
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
// `npm start -- --data-dir D` (or the app's own `--data-dir D`) chooses another data folder.
app.setPath(
  'userData',
  dataDirArgument(process.argv, process.cwd()) ?? join(app.getPath('appData'), DATA_DIR_NAME),
);

if (!app.requestSingleInstanceLock()) {
  // Another instance owns the database and the keychain entries: hand over to it.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('web-contents-created', (_event, contents) => guardContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (desk && BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.on('will-quit', (event) => {
    // Close the database (WAL checkpoint, tracker stopped) before the process ends.
    const closing = desk;
    if (!closing) return;
    event.preventDefault();
    desk = null;
    ipc?.dispose();
    void Promise.resolve(closing.close())
      .catch((error: unknown) => console.error('Could not close the data store cleanly', error))
      .finally(() => app.quit());
  });
  app.whenReady().then(start, (error: unknown) => fail(error));
}

/** No page of ours navigates, opens windows or embeds webviews; links go by shell/links.ts. */
function guardContents(contents: WebContents): void {
  contents.on('will-navigate', refuseNavigation);
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
}

function refuseNavigation(event: Electron.Event, url: string): void {
  event.preventDefault();
  openOutside(url);
}

/** Electron's parts the link rule uses, looked up when used. */
const links = externalLinks({
  shell,
  ask: (options) =>
    mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options),
  serviceAddresses: async () => (desk ? (await desk.profiles.list({})).map((p) => p.baseUrl) : []),
  log: (line) => (desk ? desk.log.error(line) : console.error(line)),
});

/** A profile's service opens in the browser; any other http(s) address after the manager's yes. */
function openOutside(url: string): void {
  void links.open(url);
}

function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler(denyPermission);
  ses.setPermissionCheckHandler((_contents, permission) => permissionPolicy.check(permission));
  ses.setDevicePermissionHandler(() => false);
  // The renderer has no network of its own: only app:// (and devtools while developing).
  ses.webRequest.onBeforeRequest((details, callback) =>
    callback({ cancel: !isAllowedRequest(details.url) }),
  );
  // Our protocol sets CONTENT_SECURITY_POLICY itself; this covers any other response. Written out
  // here so Electronegativity can evaluate it; a test keeps it equal to CONTENT_SECURITY_POLICY.
  ses.webRequest.onHeadersReceived((details, callback) => {
    // prettier-ignore
    callback({
      responseHeaders: { // eng-disable CSP_GLOBAL_CHECK: 'self' is app://desk, our built files only
        ...details.responseHeaders,
        'Content-Security-Policy': ["default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"],
      },
    });
  });
  // Serves dist/renderer; path traversal and other hosts refused in transport/assets.ts.
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = await answerAssetRequest(layout.rendererDir, request.method, request.url);
    const body = typeof answer.body === 'string' ? answer.body : new Uint8Array(answer.body);
    return new Response(body, { status: answer.status, headers: answer.headers });
  });
}

async function start(): Promise<void> {
  hardenSession();
  const dataDir = app.getPath('userData');
  try {
    const secretStore = await openSecretStore();
    const created: Desk = await createDesk({
      dataDir,
      secretStore,
      nativeBinding: sqliteBindingFor(layout, app.isPackaged, existsSync),
      chooseExportPath,
      exportFolders: [app.getPath('documents')],
      // Says where the sandbox runs once it does, for a manager who wants curl against it.
      sandbox: announcedSandbox((line) => console.log(line)),
      ownerName: 'the desktop app',
    });
    desk = created;
    console.log(`Data folder: ${dataDir}`);
  } catch (error) {
    fail(startupFailureMessage(error, dataDir));
    return;
  }
  const opened = desk;
  ipc = registerDeskIpc({
    handlers: opened,
    subscribe: (listener) => opened.subscribe(listener),
    log: (line) => opened.log.error(line),
    windows: () => (mainWindow ? [mainWindow] : []),
  });
  opened.subscribe((event: DeskEvent) => {
    if (event.type !== 'version-status-changed' || !event.ended) return;
    void notifyVersionEnded(opened, event);
  });
  const exportCommand = menuCommandEvent('export-csv');
  const template = menuTemplate({
    isMac: process.platform === 'darwin',
    isDev,
    exportEnabled: exportCommand !== null,
    onExport: () => ipc?.push(exportCommand),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template as MenuItemConstructorOptions[]));
  createWindow();
}

function createWindow(): void {
  const stateFile = join(app.getPath('userData'), WINDOW_STATE_FILE);
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((d) => d.id !== primary.id);
  const place = placeWindow(
    loadWindowState(stateFile),
    [primary, ...others].map((d) => d.workArea),
  );
  // prettier-ignore
  const window = new BrowserWindow({ // eng-disable CONTEXT_ISOLATION_JS_CHECK SANDBOX_JS_CHECK: both in HARDENED_WEB_PREFERENCES
    x: place.x,
    y: place.y,
    width: place.width,
    height: place.height,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: PRODUCT_NAME,
    show: false,
    webPreferences: {
      ...HARDENED_WEB_PREFERENCES,
      preload: layout.preloadBundle, // eng-disable PRELOAD_JS_CHECK: exposes only the contract
      disableBlinkFeatures: 'Auxclick',
      devTools: isDev,
    },
  });
  mainWindow = window;
  window.once('ready-to-show', () => {
    if (place.maximized) window.maximize();
    window.show();
  });
  // Electron drops a page's `beforeunload` hold silently: the manager is asked instead.
  window.webContents.on('will-prevent-unload', (event) => {
    if (leavesAnyway(dialog.showMessageBoxSync(window, LEAVE_UNSAVED_QUESTION)))
      event.preventDefault();
  });
  window.on('close', () => {
    const bounds = window.getNormalBounds();
    try {
      saveWindowState(stateFile, { ...bounds, maximized: window.isMaximized() });
    } catch (error) {
      console.error('Could not remember the window position', error);
    }
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  void window.loadURL(APP_ENTRY_URL);
}

/** The save dialog for reports.exportOrders; null when the manager cancels. */
async function chooseExportPath(suggestedName: string = suggestedExportName(new Date())) {
  const options = {
    title: 'Export orders to CSV',
    buttonLabel: 'Export',
    defaultPath: join(app.getPath('documents'), suggestedName),
    filters: [{ name: 'CSV (comma-separated values)', extensions: ['csv'] }],
    properties: ['createDirectory', 'showOverwriteConfirmation'] as (
      'createDirectory' | 'showOverwriteConfirmation'
    )[],
  };
  const result = mainWindow
    ? await dialog.showSaveDialog(mainWindow, options)
    : await dialog.showSaveDialog(options);
  return result.canceled || !result.filePath ? null : withCsvExtension(result.filePath);
}

async function notifyVersionEnded(
  opened: Desk,
  event: Extract<DeskEvent, { type: 'version-status-changed' }>,
): Promise<void> {
  if (!Notification.isSupported()) return;
  let name: string | null = null;
  try {
    const strategy = await opened.strategies.get({
      profileId: event.profileId,
      strategyId: event.strategyId,
    });
    name = strategy.name;
  } catch {
    // The notice still goes out, naming no strategy.
  }
  const notice = versionEndedNotice(event, name);
  if (!notice) return;
  const notification = new Notification(notice);
  notification.on('click', () => mainWindow?.show());
  notification.show();
}

function denyPermission(
  _contents: WebContents,
  permission: string,
  callback: (granted: boolean) => void,
): void {
  callback(permissionPolicy.request(permission));
}

function fail(error: unknown): void {
  const message = typeof error === 'string' ? error : startupFailureMessage(error, '');
  console.error(message);
  dialog.showErrorBox(PRODUCT_NAME, message);
  app.exit(1);
}
