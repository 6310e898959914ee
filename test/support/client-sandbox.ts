import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import {
  createServiceClient,
  type ServiceClient,
  type ServiceClientOptions,
} from '../../electron/core/api';
import { startSandbox } from '../../electron/sandbox/index';

/**
 * The built-in sandbox over loopback for the service client's integration tests: one sandbox
 * per test file, reset (faults cleared, data back to the demo) before each test, and the clients
 * a test makes closed after it.
 */

/** The real sandbox over loopback, with its admin routes at hand. */
export interface Harness {
  baseUrl: string;
  admin: <T = unknown>(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ) => Promise<T>;
  counters: () => Promise<{
    executions_accepted: Record<string, number>;
    token_requests: number;
    api_requests: number;
  }>;
  reset: () => Promise<void>;
  close: () => Promise<void>;
}

export const CORE_EQUITY = 'c3633e1d-f6c8-49fb-97e5-80b6e09e9a21';
export const DIVIDEND_GROWTH = 'fcf7399e-c3c7-42b0-88af-f28bbb709316';
export const FRESH_START = 'b4ad3dd3-28ec-455a-81fc-b07cb0c90a85';

export async function startHarness(stepMs = 0): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, stepMs });
  const agent = new Agent();
  const admin = async <T>(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ) => {
    const res = await request(`${sandbox.baseUrl}${path}`, {
      method,
      dispatcher: agent,
      headers: {
        'x-sandbox-admin': '1',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300)
      throw new Error(`admin ${method} ${path}: ${res.statusCode} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    baseUrl: sandbox.baseUrl,
    admin,
    counters: async () =>
      (await admin<{ data: Awaited<ReturnType<Harness['counters']>> }>('GET', '/sandbox/counters'))
        .data,
    reset: async () => {
      await admin('DELETE', '/sandbox/faults');
      await admin('POST', '/sandbox/reset');
    },
    close: async () => {
      await agent.close();
      await sandbox.close();
    },
  };
}

export function managerClient(h: { baseUrl: string }, extra: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({
    baseUrl: h.baseUrl,
    clientId: 'demo-manager',
    getSecret: async () => 'demo-secret',
    retry: { baseMs: 20, maxDelayMs: 200 },
    ...extra,
  });
}

/** A harness whose managerClient()s are closed after each test. */
export interface ClientSandbox extends Harness {
  /** A client of the demo manager (fast retries unless `extra` says otherwise). */
  client: (extra?: Partial<ServiceClientOptions>) => ServiceClient;
}

/**
 * Registers the file's hooks: the sandbox started before its tests and closed after them, reset
 * before each test, the test's clients closed after it. Call once at the top of a test file.
 */
export function useClientSandbox(): ClientSandbox {
  let harness: Harness | undefined;
  const clients: ServiceClient[] = [];
  const started = () => {
    if (!harness) throw new Error('the sandbox is started in beforeAll');
    return harness;
  };
  beforeAll(async () => {
    harness = await startHarness(0);
  });
  afterAll(async () => {
    await harness?.close();
  });
  beforeEach(async () => {
    await started().reset();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  return {
    get baseUrl() {
      return started().baseUrl;
    },
    admin: (method, path, body) => started().admin(method, path, body),
    counters: () => started().counters(),
    reset: () => started().reset(),
    close: () => started().close(),
    client: (extra = {}) => {
      const c = managerClient(started(), extra);
      clients.push(c);
      return c;
    },
  };
}
