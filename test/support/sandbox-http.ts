import { Agent, request } from 'undici';
import { DEMO_CLIENTS } from '../../electron/sandbox/demo-data';

/** Test helpers for talking to a running sandbox over real HTTP (keep-alive). */

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body; undefined when the body is empty or not JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export const agent = new Agent({
  keepAliveTimeout: 10_000,
  connections: 8,
  // A hang is a failure, not a slow test.
  headersTimeout: 15_000,
  bodyTimeout: 15_000,
});

export interface CallOptions {
  headers?: Record<string, string>;
  /** An object is sent as JSON with Content-Type application/json; a string as is. */
  body?: unknown;
  token?: string;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const answer = await request(new URL(path, baseUrl), {
    method: method as 'GET',
    headers,
    body,
    dispatcher: agent,
  });
  const text = await answer.body.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: answer.statusCode, headers: answer.headers, text, json };
}

export type ClientName = keyof typeof DEMO_CLIENTS;

/** A bearer token for a demo client (optionally a subset of its scopes). */
export async function tokenFor(
  baseUrl: string,
  client: ClientName,
  scope?: string,
): Promise<string> {
  const { client_id, client_secret } = DEMO_CLIENTS[client];
  const answer = await call(baseUrl, 'POST', '/api/auth/token', {
    body: { client_id, client_secret, ...(scope ? { scope } : {}) },
  });
  if (answer.status !== 200)
    throw new Error(`token for ${client_id}: ${answer.status} ${answer.text}`);
  return answer.json.access_token as string;
}

/** An admin route call (carries X-Sandbox-Admin: 1). */
export function admin(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  return call(baseUrl, method, path, { headers: { 'x-sandbox-admin': '1' }, body });
}

export function executePath(strategyId: string): string {
  return `/api/v1/strategies/${strategyId}/versions/execute`;
}

export function versionPath(strategyId: string, versionId: string, include?: string): string {
  return `/api/v1/strategies/${strategyId}/versions/${versionId}${include ? `?include=${include}` : ''}`;
}

export function target(...pairs: [string, string][]) {
  return { data: { positions: pairs.map(([symbol, weight]) => ({ symbol, weight })) } };
}

/** Polls a version until its status is terminal (COMPLETE, FAILED, CANCELLED). */
export async function waitForEnd(
  baseUrl: string,
  token: string,
  location: string,
  timeoutMs = 5000,
): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await call(baseUrl, 'GET', location, { token });
    const status = answer.json?.data?.status;
    if (['COMPLETE', 'FAILED', 'CANCELLED'].includes(status)) return answer;
    if (Date.now() > deadline) throw new Error(`version still ${status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** ISO 8601 UTC with microseconds and Z. */
export const MICRO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
