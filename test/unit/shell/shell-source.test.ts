import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../electron/transport/content-policy';
import { HARDENED_WEB_PREFERENCES } from '../../../electron/shell/security';

/**
 * What the real-Electron smoke test (test/electron/, `npm run test:electron`) cannot observe from
 * outside, read from the source: main.ts, preload.ts and ipc.ts apply what the pure modules
 * define. Isolation, the renderer sandbox, no Node, the CSP header, window.open, navigation and
 * the IPC sender check are asserted at runtime there.
 */
const root = join(__dirname, '..', '..', '..');
const parse = (file: string) => {
  const text = readFileSync(join(root, 'electron', file), 'utf8');
  return { text, source: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true) };
};

function nodesOf<T extends ts.Node>(node: ts.Node, test: (n: ts.Node) => n is T): T[] {
  const found: T[] = [];
  const visit = (n: ts.Node) => {
    if (test(n)) found.push(n);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}
const calls = (node: ts.Node) => nodesOf(node, ts.isCallExpression);
/** Calls whose callee ends with `.name` (or is `name`). */
const callsTo = (node: ts.Node, name: string) =>
  calls(node).filter((c) => {
    const callee = c.expression;
    return ts.isPropertyAccessExpression(callee)
      ? callee.name.text === name
      : callee.getText() === name;
  });
const functionNamed = (source: ts.SourceFile, name: string) =>
  nodesOf(source, ts.isFunctionDeclaration).find((f) => f.name?.text === name);

function literalValue(node: ts.Expression): unknown {
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isStringLiteralLike(node)) return node.text;
  return Symbol.for(node.getText());
}
function objectLiteral(node: ts.ObjectLiteralExpression): Record<string, unknown> {
  return Object.fromEntries(
    node.properties
      .filter(ts.isPropertyAssignment)
      .map((p) => [p.name.getText().replace(/['"]/g, ''), literalValue(p.initializer)]),
  );
}

describe('main.ts', () => {
  const { text, source } = parse('main.ts');

  // Electron has no getter for webPreferences: the smoke test sees their effects, this the list.
  it('creates its window with every hardened webPreference, spread first and overridden by none', () => {
    const windows = nodesOf(source, ts.isNewExpression).filter(
      (n) => n.expression.getText() === 'BrowserWindow',
    );
    expect(windows).toHaveLength(1);
    const options = windows[0]!.arguments![0]!;
    expect(ts.isObjectLiteralExpression(options)).toBe(true);
    const prefsNode = (options as ts.ObjectLiteralExpression).properties
      .filter(ts.isPropertyAssignment)
      .find((p) => p.name.getText() === 'webPreferences')!.initializer;
    expect(ts.isObjectLiteralExpression(prefsNode)).toBe(true);
    const [first, ...others] = (prefsNode as ts.ObjectLiteralExpression).properties;
    expect(first && ts.isSpreadAssignment(first) && first.expression.getText()).toBe(
      'HARDENED_WEB_PREFERENCES',
    );
    expect(others.filter(ts.isSpreadAssignment)).toHaveLength(0);
    const prefs = objectLiteral(prefsNode as ts.ObjectLiteralExpression);
    // Nothing else in there but the preload, devtools while developing, and Auxclick off.
    expect(Object.keys(prefs).sort()).toEqual(
      ['preload', 'devTools', 'disableBlinkFeatures'].sort(),
    );
    expect(Object.keys(prefs).filter((k) => k in HARDENED_WEB_PREFERENCES)).toEqual([]);
    expect(prefs.disableBlinkFeatures).toBe('Auxclick');
    expect(text).not.toMatch(/enableBlinkFeatures|webSecurity:\s*false|nodeIntegration:\s*true/);
  });

  it('holds the single-instance lock, sandboxes every renderer and keeps data in userData', () => {
    expect(callsTo(source, 'requestSingleInstanceLock')).toHaveLength(1);
    expect(callsTo(source, 'enableSandbox')).toHaveLength(1);
    // The folder npm start names with --data-dir, else the per-user one the browser host uses too.
    const [setPath] = callsTo(source, 'setPath');
    expect(setPath?.getText().replace(/\s+/g, ' ')).toBe(
      "app.setPath( 'userData', dataDirArgument(process.argv, process.cwd()) ?? join(app.getPath('appData'), DATA_DIR_NAME), )",
    );
    expect(text).toMatch(/const dataDir = app\.getPath\('userData'\)/);
  });

  it('serves the renderer from its own privileged scheme, never from file://', () => {
    const [registered] = callsTo(source, 'registerSchemesAsPrivileged');
    expect(registered?.getText()).toMatch(/scheme: APP_SCHEME/);
    expect(registered?.getText()).toMatch(/standard: true, secure: true/);
    expect(registered?.getText()).not.toMatch(/bypassCSP|corsEnabled|allowServiceWorkers/);
    const [handled] = callsTo(source, 'handle');
    expect(handled?.expression.getText()).toBe('protocol.handle');
    expect(handled?.getText()).toMatch(/answerAssetRequest\(layout\.rendererDir/);
    expect(callsTo(source, 'loadURL').map((c) => c.arguments[0]!.getText())).toEqual([
      'APP_ENTRY_URL',
    ]);
    expect(callsTo(source, 'loadFile')).toHaveLength(0);
    expect(text).not.toMatch(/file:\/\//);
  });

  it('opens links outside only through shell/links.ts, which asks before any other address', () => {
    // The one openExternal is in shell/links.ts, after linkAction (test/unit/shell/links.test.ts).
    expect(callsTo(source, 'openExternal')).toHaveLength(0);
    expect(functionNamed(source, 'openOutside')!.getText()).toMatch(/void links\.open\(url\);/);
    const [made] = callsTo(source, 'externalLinks');
    expect(made?.arguments[0]?.getText()).toMatch(
      /ask: \(options\) =>\s+mainWindow \? dialog\.showMessageBox\(mainWindow, options\) : dialog\.showMessageBox\(options\)/,
    );
    expect(made?.arguments[0]?.getText()).toMatch(
      /desk\.profiles\.list\(\{\}\)\)\.map\(\(p\) => p\.baseUrl\)/,
    );
    expect(made?.arguments[0]?.getText()).toMatch(/^\{\s+shell,/);
  });

  it('asks the manager when the page holds a reload or close, leaving only on Leave', () => {
    // Electron cancels the unload without a word when the page's beforeunload holds it.
    const listens = callsTo(source, 'on').filter(
      (c) => c.arguments[0]?.getText() === "'will-prevent-unload'",
    );
    expect(listens).toHaveLength(1);
    expect(listens[0]!.expression.getText()).toBe('window.webContents.on');
    expect(listens[0]!.arguments[1]!.getText()).toMatch(
      /if \(leavesAnyway\(dialog\.showMessageBoxSync\(window, LEAVE_UNSAVED_QUESTION\)\)\)\s+event\.preventDefault\(\);/,
    );
  });

  it('denies every permission request, check and device', () => {
    expect(callsTo(source, 'setPermissionRequestHandler')[0]?.arguments[0]?.getText()).toBe(
      'denyPermission',
    );
    expect(functionNamed(source, 'denyPermission')!.getText()).toMatch(
      /callback\(permissionPolicy\.request\(permission\)\)/,
    );
    expect(callsTo(source, 'setPermissionCheckHandler')[0]?.getText()).toMatch(
      /permissionPolicy\.check\(permission\)/,
    );
    expect(callsTo(source, 'setDevicePermissionHandler')[0]?.getText()).toMatch(/\(\) => false/);
  });

  it('sends the same CSP on other responses as the protocol does, and cancels foreign requests', () => {
    const [headers] = callsTo(source, 'onHeadersReceived');
    const csp = nodesOf(headers!, ts.isPropertyAssignment).find(
      (p) => p.name.getText() === "'Content-Security-Policy'",
    )!;
    const [value] = (csp.initializer as ts.ArrayLiteralExpression).elements;
    expect(literalValue(value!)).toBe(CONTENT_SECURITY_POLICY);
    expect(callsTo(source, 'onBeforeRequest')[0]?.getText()).toMatch(
      /cancel: !isAllowedRequest\(details\.url\)/,
    );
  });

  it('suppresses Electronegativity findings only in place, each with a reason', () => {
    const suppressions = text.split('\n').filter((l) => l.includes('eng-disable'));
    for (const line of suppressions) expect(line).toMatch(/eng-disable [A-Z_ ]+: \S/);
  });
});

describe('preload.ts', () => {
  const { text, source } = parse('preload.ts');

  it('exposes exactly the contract as window.desk, checked with satisfies DeskApi', () => {
    const exposed = callsTo(source, 'exposeInMainWorld');
    expect(exposed.map((c) => c.arguments.map((a) => a.getText()))).toEqual([["'desk'", 'desk']]);
    expect(nodesOf(source, ts.isSatisfiesExpression).map((s) => s.type.getText())).toEqual([
      'DeskApi',
    ]);
    expect(text).toMatch(/listChannels\(\)/);
  });

  it('never hands ipcRenderer or its events to the page', () => {
    const desk = nodesOf(source, ts.isVariableDeclaration).find(
      (d) => d.name.getText() === 'desk',
    )!;
    expect(desk.getText()).not.toMatch(/ipcRenderer/);
    expect(callsTo(source, 'invoke')[0]?.arguments[0]?.getText()).toBe(
      'ipcChannelFor(entry.channel)',
    );
    expect(callsTo(source, 'send')).toHaveLength(0);
    expect(callsTo(source, 'sendSync')).toHaveLength(0);
  });
});

describe('ipc.ts', () => {
  const { source } = parse('ipc.ts');

  it('pushes only validated events, to pages of our origin', () => {
    const push = nodesOf(source, ts.isVariableDeclaration).find(
      (d) => d.name.getText() === 'push',
    )!;
    const text = push.getText();
    expect(text.indexOf('validEvent(event)')).toBeLessThan(text.indexOf('webContents.send('));
    expect(text).toMatch(/if \(!isAppUrl\(window\.webContents\.getURL\(\)\)\) continue;/);
  });
});
