import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN } from '../../../electron/transport/app-identity';
import { CONTENT_SECURITY_POLICY } from '../../../electron/transport/content-policy';
import {
  HARDENED_WEB_PREFERENCES,
  decideLink,
  externalLinkTarget,
  isAllowedRequest,
  isAppUrl,
  permissionPolicy,
} from '../../../electron/shell/security';

describe('the window hardening', () => {
  it('isolates and sandboxes the renderer and gives it no Node', () => {
    expect(HARDENED_WEB_PREFERENCES).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
    });
  });
});

describe('the content security policy', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );

  it('allows scripts from the app itself only: no inline script, no eval, no other host', () => {
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*|http:|https:/);
  });

  it('denies by default and forbids frames, objects, forms and base changes', () => {
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
  });
});

describe('links and navigation', () => {
  const refused = [
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'file:///etc/passwd',
    'file://C:/Windows/System32/calc.exe',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'smb://server/share',
    'ms-msdt:/id PCWDiagnostic',
    `${APP_ORIGIN}/index.html`,
    'https://bank.example@evil.example/',
    'https://user:pw@example.com/',
    'not a url',
    '',
    'http://',
  ];
  it.each(refused)('never follows nor opens %j', (url) => {
    const decision = decideLink(url);
    expect(decision.allow).toBe(false);
    expect(decision.openExternally).toBeNull();
  });

  it.each([
    ['http://evil.example/', 'http://evil.example/'],
    ['https://example.com/docs?q=1#top', 'https://example.com/docs?q=1#top'],
    ['HTTPS://Example.COM/a b', 'https://example.com/a%20b'],
  ])('keeps the app in place and hands %j to the system browser', (url, opened) => {
    expect(decideLink(url)).toEqual({ allow: false, openExternally: opened });
    expect(externalLinkTarget(url)).toBe(opened);
  });
});

describe('the app origin and the session', () => {
  it('recognizes our own pages only', () => {
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppUrl(`${APP_ORIGIN}/assets/index-abc.js`)).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(isAppUrl('app://desk.evil/index.html')).toBe(false);
    expect(isAppUrl('https://desk/index.html')).toBe(false);
    expect(isAppUrl('file:///index.html')).toBe(false);
    expect(isAppUrl('garbage')).toBe(false);
  });

  it('lets the renderer load its own files and nothing from the network', () => {
    expect(isAllowedRequest(`${APP_ORIGIN}/assets/app.css`)).toBe(true);
    expect(isAllowedRequest('devtools://devtools/bundled/inspector.html')).toBe(true);
    for (const url of [
      'https://example.com/x.js',
      'http://127.0.0.1:4010/api/auth/token',
      'ws://127.0.0.1:1/',
      'file:///etc/passwd',
      'data:text/javascript,1',
    ]) {
      expect(isAllowedRequest(url), url).toBe(false);
    }
  });

  it('denies every permission request and check', () => {
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'clipboard-sanitized-write',
      'fullscreen',
      'openExternal',
      'pointerLock',
      'midi',
      'midiSysex',
      'display-capture',
      'hid',
      'serial',
      'usb',
      'unknown',
    ]) {
      expect(permissionPolicy.request(permission), permission).toBe(false);
      expect(permissionPolicy.check(permission), permission).toBe(false);
    }
  });
});
