import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { Agent, request } from 'undici';

/**
 * A configurable stand-in for a production service, on loopback over real HTTP: it forwards each
 * request to an upstream (the built-in sandbox, so a manager's whole flow can reach COMPLETE) and
 * lets each test change the answers within what the service interface allows (compressed bodies,
 * another Location, fields dropped, other error shapes and statuses). Every request it receives
 * is kept, so a test can check what the client sent and where. Without an upstream every request
 * is answered 404 (a trap: another origin the token must never reach). It counts the requests of
 * each API client under way at once (received, not yet answered): a client is known by the
 * `client_id` of its token request, and its bearer token by the answer to that request.
 */

export interface SeenRequest {
  method: string;
  /** Path and query as received (with the fake's prefix). */
  path: string;
  /** The Host header: which name the client used for this server. */
  host: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** Sends the request (or a changed one) to the upstream and returns its answer. */
export type Forward = (change?: { path?: string; body?: string }) => Promise<FakeAnswer>;

/** How the fake answers one request: forward it (and change the answer), or answer itself. */
export type Rule = (req: SeenRequest, forward: Forward) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeService {
  /** The address a profile uses: origin plus the prefix (no trailing slash). */
  baseUrl: string;
  origin: string;
  port: number;
  /** Every request received, in order. */
  requests: SeenRequest[];
  /** The most requests of `clientId` under way at once since the start (or the last reset). */
  peakInFlight(clientId: string): number;
  /** Forgets the peaks seen so far. */
  resetPeaks(): void;
  /** Sets how the following requests are answered (null: forwarded as they are). */
  answer(rule: Rule | null): void;
  close(): Promise<void>;
}

export interface FakeServiceOptions {
  /** Where requests are forwarded (the sandbox's base URL); none makes a trap answering 404. */
  upstream?: string;
  /** A path the service lives under, e.g. `/psvs`: stripped before forwarding, added to Locations. */
  prefix?: string;
}

const passThrough: Rule = (_req, forward) => forward();

export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  const requests: SeenRequest[] = [];
  let rule: Rule = passThrough;
  /** The API client of each bearer token handed out through this fake. */
  const clientOfToken = new Map<string, string>();
  const inFlight = new Map<string, number>();
  const peaks = new Map<string, number>();
  const clientOf = (seen: SeenRequest): string => {
    const auth = seen.headers.authorization ?? '';
    if (auth.startsWith('Bearer ')) return clientOfToken.get(auth.slice(7)) ?? '(unknown token)';
    return tokenRequestClient(seen) ?? '(anonymous)';
  };
  /** Notes the token an answer to a token request hands to its client. */
  const learnToken = (seen: SeenRequest, answer: FakeAnswer) => {
    const clientId = tokenRequestClient(seen);
    if (!isToken(seen) || answer.status !== 200 || clientId === undefined) return;
    try {
      const token = (JSON.parse(answer.body.toString('utf8')) as { access_token?: unknown })
        .access_token;
      if (typeof token === 'string') clientOfToken.set(token, clientId);
    } catch {
      // Not a token answer the fake can read: its requests count as an unknown token's.
    }
  };

  const forwardFor =
    (seen: SeenRequest): Forward =>
    async (change = {}) => {
      if (!options.upstream) return jsonAnswer(404, { errors: { detail: 'Not found' } });
      const path = change.path ?? seen.path;
      const upstreamPath = prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(seen.headers)) {
        // The upstream answers plainly; the rule decides how the answer is coded.
        if (['host', 'connection', 'content-length', 'accept-encoding'].includes(name)) continue;
        if (typeof value === 'string') headers[name] = value;
      }
      const body = change.body ?? seen.body;
      const res = await request(new URL(upstreamPath, options.upstream), {
        method: seen.method as 'GET',
        headers,
        body: seen.method === 'GET' || seen.method === 'DELETE' ? undefined : body,
        dispatcher: agent,
      });
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined || ['connection', 'keep-alive', 'content-length'].includes(name))
          continue;
        out[name] = value;
      }
      const location = out.location;
      if (prefix && typeof location === 'string' && location.startsWith('/'))
        out.location = prefix + location;
      return {
        status: res.statusCode,
        headers: out,
        body: Buffer.from(await res.body.arrayBuffer()),
      };
    };

  const server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        host: req.headers.host ?? '',
        headers: req.headers,
        body,
      };
      requests.push(seen);
      const client = clientOf(seen);
      const now = (inFlight.get(client) ?? 0) + 1;
      inFlight.set(client, now);
      peaks.set(client, Math.max(peaks.get(client) ?? 0, now));
      // Under way until the answer has gone out (or the client gave up on it).
      res.once('close', () => inFlight.set(client, inFlight.get(client)! - 1));
      let answer: FakeAnswer;
      try {
        answer = await rule(seen, forwardFor(seen));
      } catch (error) {
        answer = {
          status: 599,
          headers: { 'content-type': 'text/plain' },
          body: Buffer.from(`fake service rule failed: ${String(error)}`),
        };
      }
      learnToken(seen, answer);
      res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: origin + prefix,
    origin,
    port,
    requests,
    peakInFlight: (clientId) => peaks.get(clientId) ?? 0,
    resetPeaks: () => peaks.clear(),
    answer(next) {
      rule = next ?? passThrough;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}

/** The client id a token request names (JSON body, form body or HTTP Basic). */
function tokenRequestClient(seen: SeenRequest): string | undefined {
  if (!isToken(seen)) return undefined;
  const auth = seen.headers.authorization ?? '';
  if (auth.startsWith('Basic ')) {
    const pair = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    return decodeURIComponent(pair.slice(0, Math.max(0, pair.indexOf(':'))));
  }
  try {
    const body = JSON.parse(seen.body) as { client_id?: unknown };
    if (typeof body.client_id === 'string') return body.client_id;
  } catch {
    // A form body.
  }
  return new URLSearchParams(seen.body).get('client_id') ?? undefined;
}

/**
 * Answers 429 (with `Retry-After: retryAfter`) to every `every`-th request that `matches`, once
 * per method and path: the request asked again is forwarded, so every flow can end well and a
 * test checks how it waited, not whether it gave up. Every answer goes `delayMs` late
 * (`delayed`).
 */
export function tooManyEvery(
  every: number,
  options: { retryAfter: string; delayMs: number; matches: (req: SeenRequest) => boolean },
): Rule & { refused: SeenRequest[] } {
  let counted = 0;
  const refusedOnce = new Set<string>();
  const refused: SeenRequest[] = [];
  const later = delayed(options.delayMs);
  const rule: Rule = (req, forward) => {
    const key = `${req.method} ${req.path}`;
    if (!options.matches(req) || refusedOnce.has(key) || ++counted % every !== 0)
      return later(req, forward);
    refusedOnce.add(key);
    refused.push(req);
    return later(req, () =>
      Promise.resolve(
        jsonAnswer(
          429,
          { errors: { detail: 'Too many requests' } },
          { 'retry-after': options.retryAfter },
        ),
      ),
    );
  };
  return Object.assign(rule, { refused });
}

/** Forwards every request `delayMs` later: requests overlap as they would at a busy service. */
export function delayed(delayMs: number): Rule {
  return async (_req, forward) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return forward();
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** An answer with a JSON body (or text when `body` is a string). */
export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): FakeAnswer {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(text),
  };
}

/** The answer's body parsed as JSON (the upstream answers uncompressed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test edits any answer
export function bodyOf(answer: FakeAnswer): any {
  return JSON.parse(answer.body.toString('utf8'));
}

/** The answer with its JSON body changed by `edit` (which may change it in place). */
export function withJson(
  answer: FakeAnswer,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test edits any answer
  edit: (body: any) => unknown,
): FakeAnswer {
  const body = bodyOf(answer);
  const changed = edit(body);
  return { ...answer, body: Buffer.from(JSON.stringify(changed === undefined ? body : changed)) };
}

export type Coding = 'gzip' | 'x-gzip' | 'deflate' | 'raw-deflate' | 'br';

/** The answer's body compressed with `coding` and labelled so (raw-deflate says `deflate`). */
export function compressed(answer: FakeAnswer, coding: Coding): FakeAnswer {
  const body =
    coding === 'gzip' || coding === 'x-gzip'
      ? gzipSync(answer.body)
      : coding === 'br'
        ? brotliCompressSync(answer.body)
        : coding === 'deflate'
          ? deflateSync(answer.body)
          : // Some servers send a bare deflate stream under `deflate`.
            deflateRawSync(answer.body);
  const label = coding === 'raw-deflate' ? 'deflate' : coding;
  return { ...answer, headers: { ...answer.headers, 'content-encoding': label }, body };
}

/** The strategy and version ids of a version path, when `path` is one. */
export function versionPathIds(
  path: string,
): { strategyId: string; versionId: string; query: string } | null {
  const m = /\/api\/v1\/strategies\/([^/?]+)\/versions\/([^/?]+)(\?.*)?$/.exec(path);
  if (!m || m[2] === 'execute') return null;
  return { strategyId: m[1]!, versionId: m[2]!, query: m[3] ?? '' };
}

export const isExecute = (req: SeenRequest) =>
  req.method === 'POST' && /\/versions\/execute(\?|$)/.test(req.path);
export const isToken = (req: SeenRequest) => req.path.endsWith('/api/auth/token');
