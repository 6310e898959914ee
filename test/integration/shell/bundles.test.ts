import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listChannels, type DeskEvent, type DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import { IPC_EVENT_CHANNEL, ipcChannelFor } from '../../../electron/transport/app-identity';
import { dispatchCall } from '../../../electron/transport/dispatch';
import { buildMain, buildPreload } from '../../../scripts/build-electron';
import { asDeskError } from '../../../renderer/src/lib/errors';
import { journalChanged } from '../../support/desk-events';

/**
 * The real bundles esbuild makes for Electron. No Electron binary runs here, so the preload is
 * run in a bare V8 context whose only module is a stand-in `electron` wired to the real IPC
 * dispatch: what it exposes, how calls and errors and events cross, exactly as bundled.
 */
let out: string;
let preloadCode: string;
let mainCode: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'desk-bundles-'));
  preloadCode = readFileSync(await buildPreload(join(out, 'preload.cjs')), 'utf8');
  mainCode = readFileSync(await buildMain(join(out, 'main.cjs')), 'utf8');
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const requiresOf = (code: string) =>
  [...new Set([...code.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!))].sort();

const status = {
  online: true,
  lastSyncAt: null,
  runningVersions: 0,
  needsAttention: 0,
  secretStorage: 'keychain',
  secretStorageReason: null,
};

/**
 * contextBridge's documented copy rules for what matters here: functions are proxied, plain
 * objects copied, and a thrown or rejected Error arrives as a new Error with its message only.
 */
function acrossTheBridge(value: unknown): unknown {
  // The preload runs in another V8 context: compare by tag, not with instanceof.
  const isError = (v: unknown) => Object.prototype.toString.call(v) === '[object Error]';
  const copyError = (error: unknown) =>
    isError(error) ? new Error((error as Error).message) : structuredClone(error);
  if (typeof value === 'function') {
    return (...args: unknown[]) => {
      try {
        const result = (value as (...a: unknown[]) => unknown)(...args);
        if (typeof (result as { then?: unknown } | null)?.then === 'function') {
          return Promise.resolve(result).then(acrossTheBridge, (error: unknown) =>
            Promise.reject(copyError(error)),
          );
        }
        return acrossTheBridge(result);
      } catch (error) {
        throw copyError(error);
      }
    };
  }
  if (Array.isArray(value)) return value.map(acrossTheBridge);
  if (typeof value === 'object' && value !== null) {
    if (Object.values(value).some((v) => typeof v === 'function' || typeof v === 'object')) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, acrossTheBridge(v)]));
    }
    return structuredClone(value);
  }
  return value;
}

function loadPreload(handlers: DeskHandlers) {
  const exposed: Record<string, unknown> = {};
  let eventListener: ((e: unknown, payload: unknown) => void) | undefined;
  const channels = new Map(listChannels().map((c) => [ipcChannelFor(c.channel), c]));
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => {
        exposed[key] = acrossTheBridge(api);
      },
    },
    ipcRenderer: {
      invoke: async (channel: string, input: unknown) => {
        const entry = channels.get(channel);
        if (!entry) throw new Error(`No handler registered for '${channel}'`);
        // What crosses IPC is structured-cloned: no functions, no prototypes.
        return structuredClone(
          await dispatchCall(handlers, entry, structuredClone(input), () => {}),
        );
      },
      on: (channel: string, listener: (e: unknown, payload: unknown) => void) => {
        if (channel === IPC_EVENT_CHANNEL) eventListener = listener;
      },
    },
  };
  const required: string[] = [];
  const context = vm.createContext({
    require: (name: string) => {
      required.push(name);
      if (name === 'electron') return electron;
      throw new Error(`a sandboxed preload cannot require ${name}`);
    },
    module: { exports: {} },
    exports: {},
    console,
  });
  vm.runInContext(preloadCode, context);
  return {
    desk: exposed.desk as Record<string, Record<string, (input?: unknown) => Promise<unknown>>>,
    keys: Object.keys(exposed),
    required,
    emit: (payload: unknown) => eventListener?.({ sender: 'ipc event' }, payload),
  };
}

describe('the preload bundle', () => {
  it('is one CommonJS file that requires nothing but electron', () => {
    expect(requiresOf(preloadCode)).toEqual(['electron']);
    expect(preloadCode).not.toMatch(/\bimport\s*\(|from\s*["']/);
  });

  it('exposes window.desk only, with every channel of the contract and the event bridge', () => {
    const { desk, keys, required } = loadPreload({} as DeskHandlers);
    expect(keys).toEqual(['desk']);
    expect(required).toEqual(['electron']);
    const exposed = Object.entries(desk)
      .filter(([area]) => area !== 'events')
      .flatMap(([area, methods]) => Object.keys(methods).map((m) => `${area}.${m}`))
      .sort();
    expect(exposed).toEqual(
      listChannels()
        .map((c) => c.channel)
        .sort(),
    );
    // The contract's event bridge: every event, or one type's with its data typed.
    expect(Object.keys(desk.events!)).toEqual(['subscribe', 'on']);
  });

  it('calls through to the handler and returns its parsed answer', async () => {
    const { desk } = loadPreload({
      app: { status: async () => status },
    } as unknown as DeskHandlers);
    expect(await desk.app!.status!({})).toEqual(status);
  });

  it('rejects with the DeskError data, which survives the bridge and the renderer rebuilds', async () => {
    const { desk } = loadPreload({
      app: {
        status: async () => {
          throw new DeskError({
            kind: 'forbidden',
            message: 'This client lacks scope X',
            status: 403,
            details: { ambiguous: false, missingScope: 'X', missingScopes: ['X'] },
          });
        },
      },
    } as unknown as DeskHandlers);
    const rejected = await desk.app!.status!({}).catch((e: unknown) => e);
    expect(rejected).toEqual({
      name: 'DeskError',
      kind: 'forbidden',
      message: 'This client lacks scope X',
      status: 403,
      details: { ambiguous: false, missingScope: 'X', missingScopes: ['X'] },
    });
    const rebuilt = asDeskError(rejected);
    expect(rebuilt).toBeInstanceOf(DeskError);
    expect([rebuilt.kind, rebuilt.message, rebuilt.status]).toEqual([
      'forbidden',
      'This client lacks scope X',
      403,
    ]);
  });

  it('turns input the contract refuses into an invalid-input DeskError, naming the field', async () => {
    const { desk } = loadPreload({} as DeskHandlers);
    const error = (await desk.profiles!.create!({
      name: '',
      baseUrl: '',
      clientId: '',
      secret: '',
    }).catch((e: unknown) => e)) as DeskError;
    expect(error.kind).toBe('invalid-input');
    expect(error.message).toMatch(/name: Give the profile a name/);
  });

  it('delivers valid events to subscribers until they unsubscribe, and drops others', () => {
    const { desk, emit } = loadPreload({} as DeskHandlers);
    const seen: DeskEvent[] = [];
    const events = desk.events as unknown as { subscribe(l: (e: DeskEvent) => void): () => void };
    const unsubscribe = events.subscribe((e) => seen.push(e));
    const event = journalChanged('3f1e8a56-0a8e-4c3c-9a57-6d0b7f1f4a10');
    emit(event);
    emit({ ...event, profileId: 'not-a-uuid' });
    emit({ type: 'evil' });
    unsubscribe();
    emit(event);
    expect(seen).toEqual([event]);
  });

  it('delivers one type of valid events to on(type) until it unsubscribes', () => {
    const { desk, emit } = loadPreload({} as DeskHandlers);
    const seen: DeskEvent[] = [];
    const events = desk.events as unknown as {
      on(type: string, handler: (e: DeskEvent) => void): () => void;
    };
    const off = events.on('journal-changed', (e) => seen.push(e));
    const event = journalChanged('3f1e8a56-0a8e-4c3c-9a57-6d0b7f1f4a10');
    emit({ type: 'menu-command', command: 'export-csv' });
    emit(event);
    off();
    emit(event);
    expect(seen).toEqual([event]);
  });
});

describe('the main-process bundle', () => {
  it('leaves electron, Node built-ins and runtime dependencies to the runtime', () => {
    const pkg = JSON.parse(
      readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
    ) as {
      dependencies: Record<string, string>;
    };
    const allowed = new Set([
      'electron',
      ...Object.keys(pkg.dependencies),
      'keytar/lib/keytar.js',
      ...builtinModules.flatMap((m) => [m, `node:${m}`]),
    ]);
    const required = requiresOf(mainCode);
    expect(required.filter((r) => !allowed.has(r))).toEqual([]);
    expect(required).toEqual(expect.arrayContaining(['electron', 'better-sqlite3']));
  });

  it('prefers the Electron build of keytar and never touches the Node build in development', () => {
    expect(mainCode).toMatch(/"build", "native", "electron", "keytar\.node"/);
  });
});
