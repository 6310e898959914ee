import { describe, expect, it } from 'vitest';
import {
  OPEN_BUTTON,
  externalLinks,
  linkAction,
  trustedLinkOrigins,
  type LinkQuestion,
  type LinkShell,
} from '../../../electron/shell/links';

const PRODUCTION = 'https://psvs.bank.example/api';
const SANDBOX = 'http://127.0.0.1:4010';

/**
 * Electron's shell and dialog as main.ts hands them over, recording what the app does: what it
 * opens in the browser and what it asks the manager (answering as scripted, in order).
 */
function electronApi(options: { addresses?: readonly string[] | Error; answers?: number[] } = {}) {
  const opened: string[] = [];
  const asked: LinkQuestion[] = [];
  const logged: string[] = [];
  const answers = [...(options.answers ?? [])];
  const pending: (() => void)[] = [];
  let hold = false;
  const api: LinkShell = {
    shell: {
      openExternal: async (url) => {
        opened.push(url);
      },
    },
    ask: async (box) => {
      asked.push(box);
      if (hold) await new Promise<void>((resolve) => pending.push(resolve));
      return { response: answers.shift() ?? 0 };
    },
    serviceAddresses: async () => {
      const addresses = options.addresses ?? [PRODUCTION, SANDBOX];
      if (addresses instanceof Error) throw addresses;
      return addresses;
    },
    log: (line) => logged.push(line),
  };
  return {
    links: externalLinks(api),
    opened,
    asked,
    logged,
    /** Keeps the next questions open until release(). */
    holdQuestions: () => (hold = true),
    release: () => pending.splice(0).forEach((resolve) => resolve()),
  };
}

describe('links to where the app links: a profile’s service', () => {
  it.each([
    'https://psvs.bank.example/docs/versions',
    'https://psvs.bank.example/',
    'HTTPS://PSVS.bank.example:443/api/v1/strategies?x=1#y',
    'http://127.0.0.1:4010/sandbox/docs',
  ])('opens %s in the browser without asking', async (url) => {
    const e = electronApi();
    expect(await e.links.open(url)).toBe('opened');
    expect(e.opened).toEqual([new URL(url).href]);
    expect(e.asked).toEqual([]);
  });
});

describe('links anywhere else', () => {
  it.each([
    ['another host', 'https://evil.example/login'],
    ['a longer name ending like the service', 'https://psvs.bank.example.evil.example/'],
    ['the service over plain http', 'http://psvs.bank.example/docs'],
    ['another port of the sandbox', 'http://127.0.0.1:4011/'],
    ['localhost for the sandbox’s 127.0.0.1', 'http://localhost:4010/'],
  ])('asks first for %s, naming the full address, and opens nothing on Cancel', async (_, url) => {
    const e = electronApi({ answers: [0] });
    expect(await e.links.open(url)).toBe('declined');
    expect(e.opened).toEqual([]);
    expect(e.asked).toHaveLength(1);
    const [question] = e.asked;
    expect(question!.message).toBe('Open this address in your browser?');
    expect(question!.detail!.split('\n')[0]).toBe(new URL(url).href);
    expect(question!.buttons).toEqual(['Cancel', 'Open in browser']);
    // Enter and Escape both cancel.
    expect([question!.defaultId, question!.cancelId]).toEqual([0, 0]);
  });

  it('opens exactly the address shown once the manager says yes', async () => {
    const e = electronApi({ answers: [OPEN_BUTTON] });
    const url = 'https://example.com/a b?q=1#top';
    expect(await e.links.open(url)).toBe('opened');
    expect(e.opened).toEqual(['https://example.com/a%20b?q=1#top']);
    expect(e.asked[0]!.detail).toMatch(/^https:\/\/example\.com\/a%20b\?q=1#top\n/);
  });

  it('shows a look-alike host in its xn-- form, never as the service’s name', async () => {
    // "psvs" with a Cyrillic "ѕ".
    const e = electronApi({ answers: [0] });
    expect(await e.links.open('https://p\u0455vs.bank.example/docs')).toBe('declined');
    expect(e.asked[0]!.detail).toMatch(/^https:\/\/xn--pvs-\w+\.bank\.example\/docs\n/);
  });

  it('asks one question at a time: a link while one is open is dropped', async () => {
    const e = electronApi({ answers: [OPEN_BUTTON] });
    e.holdQuestions();
    const first = e.links.open('https://example.com/first');
    await expect.poll(() => e.asked.length).toBe(1);
    expect(await e.links.open('https://example.com/second')).toBe('busy');
    // A profile's service still opens meanwhile: it needs no question.
    expect(await e.links.open('https://psvs.bank.example/docs')).toBe('opened');
    e.release();
    expect(await first).toBe('opened');
    expect(e.asked).toHaveLength(1);
    expect(e.opened).toEqual(['https://psvs.bank.example/docs', 'https://example.com/first']);
  });

  it('asks for every address when the profiles cannot be read', async () => {
    const e = electronApi({ addresses: new Error('database is locked'), answers: [0] });
    expect(await e.links.open('https://psvs.bank.example/docs')).toBe('declined');
    expect(e.opened).toEqual([]);
    expect(e.logged).toEqual(['links: the profiles could not be read: database is locked']);
  });
});

describe('links that are not plain http(s)', () => {
  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'ms-msdt:/id PCWDiagnostic',
    'https://psvs.bank.example@evil.example/',
    'app://desk/index.html',
    'not a url',
  ])('drops %j without asking', async (url) => {
    const e = electronApi({ answers: [OPEN_BUTTON] });
    expect(await e.links.open(url)).toBe('dropped');
    expect([e.opened, e.asked]).toEqual([[], []]);
  });
});

describe('the origins the app trusts', () => {
  it('are the profiles’ service addresses, by scheme, host and port', () => {
    const trusted = trustedLinkOrigins([PRODUCTION, SANDBOX, 'not an address', 'ftp://x.example']);
    expect([...trusted]).toEqual(['https://psvs.bank.example', 'http://127.0.0.1:4010']);
    expect(linkAction('https://psvs.bank.example:8443/', trusted).kind).toBe('ask');
    expect(linkAction('https://psvs.bank.example/x', new Set()).kind).toBe('ask');
  });
});
