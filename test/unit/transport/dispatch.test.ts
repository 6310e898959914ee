import { describe, expect, it } from 'vitest';
import { listChannels, type DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/views';
import {
  dispatchCall,
  toBridgeError,
  toErrorData,
  unwrapCallResult,
  validEvent,
} from '../../../electron/transport/dispatch';
import { journalChanged } from '../../support/desk-events';

const channel = (name: string) => listChannels().find((c) => c.channel === name)!;
const profileId = '3f1e8a56-0a8e-4c3c-9a57-6d0b7f1f4a10';
const profile = {
  id: profileId,
  name: 'Desk',
  baseUrl: 'http://127.0.0.1:4010',
  clientId: 'demo-manager',
  environment: 'sandbox',
  secretStorage: 'keychain',
  hasSecret: true,
  grantedScopes: null,
  createdAt: '2025-01-02T03:04:05.000000Z',
};

/** Handlers for the few channels these tests call; the rest are never reached. */
function handlers(overrides: Record<string, Record<string, (input: never) => Promise<unknown>>>) {
  return overrides as unknown as DeskHandlers;
}

describe('one IPC call', () => {
  it('parses the input, calls the handler and returns its value', async () => {
    const seen: unknown[] = [];
    const desk = handlers({
      profiles: {
        create: async (input: never) => {
          seen.push(input);
          return profile;
        },
      },
    });
    const result = await dispatchCall(desk, channel('profiles.create'), {
      name: '  Desk ',
      baseUrl: 'http://127.0.0.1:4010',
      clientId: 'demo-manager',
      secret: 'demo-secret',
    });
    expect(result).toEqual({ ok: true, value: profile });
    // zod trimmed the name before the handler saw it.
    expect(seen).toEqual([
      {
        name: 'Desk',
        baseUrl: 'http://127.0.0.1:4010',
        clientId: 'demo-manager',
        secret: 'demo-secret',
      },
    ]);
  });

  it('refuses an input outside the schema without calling the handler, naming the field', async () => {
    let called = false;
    const desk = handlers({ profiles: { create: async () => ((called = true), profile) } });
    const result = await dispatchCall(desk, channel('profiles.create'), {
      name: 'Desk',
      baseUrl: 'x',
      clientId: 'c',
      secret: '',
      extra: 1,
    });
    expect(called).toBe(false);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('invalid-input');
    expect(result.error.message).toContain('secret: Enter the client secret');
    // The error never echoes the input: no secret in it.
    expect(JSON.stringify(result.error)).not.toContain('demo-secret');
  });

  it('passes a DeskError through as data', async () => {
    const desk = handlers({
      app: {
        status: async () => {
          throw new DeskError({
            kind: 'network',
            message: 'The service cannot be reached.',
            status: 503,
          });
        },
      },
    });
    expect(await dispatchCall(desk, channel('app.status'), {})).toEqual({
      ok: false,
      error: { kind: 'network', message: 'The service cannot be reached.', status: 503 },
    });
  });

  it('turns any other error into a plain sentence and logs the detail', async () => {
    const lines: string[] = [];
    const desk = handlers({
      app: {
        status: async () => {
          throw new TypeError('x is undefined');
        },
      },
    });
    const result = await dispatchCall(desk, channel('app.status'), {}, (l) => lines.push(l));
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'internal',
        message: 'Something went wrong inside the app. Please try again.',
      },
    });
    expect(lines).toEqual(['app.status failed: TypeError: x is undefined']);
  });

  it('checks the answer against the output schema and strips fields the contract does not name', async () => {
    const leaky = handlers({
      profiles: { list: async () => [{ ...profile, clientSecret: 'demo-secret', token: 'abc' }] },
    });
    const result = await dispatchCall(leaky, channel('profiles.list'), {});
    expect(result).toEqual({ ok: true, value: [profile] });

    const broken = handlers({ profiles: { list: async () => [{ id: 'not-a-uuid' }] } });
    const lines: string[] = [];
    const refused = await dispatchCall(broken, channel('profiles.list'), {}, (l) => lines.push(l));
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.kind).toBe('internal');
    expect(lines[0]).toMatch(/profiles\.list answered outside its schema/);
  });

  it('treats a missing payload as an empty object', async () => {
    const desk = handlers({ profiles: { list: async () => [] } });
    expect(await dispatchCall(desk, channel('profiles.list'), undefined)).toEqual({
      ok: true,
      value: [],
    });
  });
});

describe('the preload side', () => {
  it('returns the value of a success', () => {
    expect(unwrapCallResult('app.status', { ok: true, value: 42 })).toBe(42);
  });

  it('rethrows an error as a DeskError with all its data', () => {
    try {
      unwrapCallResult('app.status', {
        ok: false,
        error: {
          kind: 'forbidden',
          message: 'This client lacks scope strategies:read',
          status: 403,
        },
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DeskError);
      expect((error as DeskError).toData()).toEqual({
        kind: 'forbidden',
        message: 'This client lacks scope strategies:read',
        status: 403,
      });
    }
  });

  it.each([null, undefined, 'ok', { ok: false }, { ok: false, error: { kind: 1 } }, { value: 1 }])(
    'calls %j an unexpected answer',
    (answer) => {
      expect(() => unwrapCallResult('app.status', answer)).toThrow(
        /answered app\.status in an unexpected form/,
      );
    },
  );

  it('maps errors that are not DeskErrors to an internal error', () => {
    const logged: string[] = [];
    expect(toErrorData('boom', 'x.y', (l) => logged.push(l)).kind).toBe('internal');
    expect(logged).toEqual(['x.y failed: string: boom']);
  });
});

describe('events', () => {
  it('pushes only events the contract describes', () => {
    const event = journalChanged(profileId);
    expect(validEvent(event)).toEqual(event);
    expect(validEvent({ ...event, profileId: 'nope' })).toBeNull();
    expect(validEvent({ type: 'run-this', code: 'alert(1)' })).toBeNull();
  });
});

describe('errors crossing contextBridge', () => {
  it('become plain data: a DeskError keeps every field, anything else says internal', () => {
    const error = new DeskError({
      kind: 'network',
      message: 'No connection.',
      details: { ambiguous: false },
    });
    expect(toBridgeError(error)).toEqual({
      name: 'DeskError',
      kind: 'network',
      message: 'No connection.',
      details: { ambiguous: false },
    });
    expect(Object.getPrototypeOf(toBridgeError(error))).toBe(Object.prototype);
    expect(toBridgeError(new Error('secret path /x'))).toEqual({
      name: 'DeskError',
      kind: 'internal',
      message: 'Something went wrong inside the app. Please try again.',
    });
  });
});
