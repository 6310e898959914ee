import Fastify from 'fastify';
import type { DeskHandlers } from '../../shared/contract';
import { registerApiRoutes } from './api-routes';
import { registerEventRoute, type Subscribe } from './events';
import { SECURITY_HEADERS, allowedHost, guardCalls, newToken, refuse } from './security';
import { bookPreloadTags } from './first-screen';
import { registerStaticFiles } from './static-files';

export interface HostOptions {
  handlers: DeskHandlers;
  subscribe: Subscribe;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  /** The per-launch token; a fresh random one unless given (tests only). */
  token?: string;
  /** Where the host's own failures are written (the desk's log); stderr by default. */
  log?: (line: string) => void;
  /** Timeouts and the connection cap; HOST_LIMITS unless given (tests shorten them). */
  limits?: Partial<HostLimits>;
  /**
   * Whether the data folder has a profile (the first screen is then its book, whose code the
   * page is told to fetch with its own), asked as the page is served. Read from the desk's
   * store, it costs no keychain read and no call (a call puts off the walk of the activity log
   * until the first screen's calls are over); without it, `handlers.profiles.list` is asked.
   */
  hasProfiles?: () => boolean;
}

/**
 * What the host waits for and holds, so that connections sending nothing, or headers a byte at a
 * time, cannot pile up (each holds a socket and memory). Only receiving a request is timed: an
 * answer may take as long as it takes (a large export), and the event stream stays open.
 */
export interface HostLimits {
  /** A request's headers arrive whole within this (a browser sends them at once). */
  headersTimeoutMs: number;
  /** A whole request, headers and body, arrives within this (a body is at most BODY_LIMIT). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; the browser opens a new one. */
  keepAliveTimeoutMs: number;
  /** How often Node looks for connections past those timeouts (its default is 30 s). */
  checkIntervalMs: number;
  /** Connections open at once (a tab holds about 7); one more is closed as soon as it comes. */
  maxConnections: number;
}

export const HOST_LIMITS: Readonly<HostLimits> = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
  maxConnections: 100,
};

/** A flood of refused connections is written to the log once a minute at most. */
const DROP_LOG_EVERY_MS = 60_000;

/** Routes answer only with the token, except the built renderer's files, which are public. */
export type RouteAccess = 'token' | 'public-asset';

export interface HostRoute {
  method: string | string[];
  url: string;
  access: RouteAccess;
}

export interface RunningHost {
  /** Open this: it carries the token in the fragment, which never reaches a server log. */
  url: string;
  port: number;
  token: string;
  /** Every registered route and who may call it (the security tests walk them all). */
  routes: readonly HostRoute[];
  close(): Promise<void>;
}

/** Request bodies larger than this are refused: a draft of 5000 rows is far smaller. */
export const BODY_LIMIT = 8 * 1024 * 1024;

/**
 * The browser host: the contract over loopback HTTP on 127.0.0.1, for headless machines and the
 * end-to-end tests. Every call needs the per-launch token, our Host and our Origin.
 */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? newToken();
  const log = options.log ?? ((line: string) => console.error(`[host] ${line}`));
  const limits = { ...HOST_LIMITS, ...options.limits };
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    // On close, cut every connection: a browser tab's keep-alive socket must not hold the app open.
    forceCloseConnections: true,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
  });
  app.server.maxConnections = limits.maxConnections;
  let lastDropLogged = -Infinity;
  let dropped = 0;
  app.server.on('drop', () => {
    dropped += 1;
    if (Date.now() - lastDropLogged < DROP_LOG_EVERY_MS) return;
    lastDropLogged = Date.now();
    log(
      `refused ${dropped} connection(s): ${limits.maxConnections} are open already (something on this machine is opening many)`,
    );
    dropped = 0;
  });
  let port = -1;
  const streams = new Set<() => void>();
  const routes: HostRoute[] = [];

  app.addHook('onRequest', async (request, reply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    if (!allowedHost(request.headers.host, port)) {
      return refuse(reply, 403, { kind: 'forbidden', message: 'Unknown host name.' });
    }
  });

  // Who may call is decided per route, after routing: the router matches the decoded path
  // (and absolute-form targets), so a check on the raw URL could be walked around. Every
  // route is guarded unless it is registered as a public static asset. The guard is the
  // route's first onRequest hook: it runs before the body is even read, so a caller without
  // the token cannot make the host parse (or size up) anything.
  const guard = guardCalls(token);
  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: RouteAccess } | undefined)?.access;
    routes.push({ method: route.method, url: route.url, access: access ?? 'token' });
    if (access === 'public-asset') return;
    const existing = route.onRequest;
    route.onRequest = [guard, ...(existing ? [existing].flat() : [])];
  });

  // Only JSON crosses: a cross-site form cannot send it without a preflight we never answer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      const error = new Error('The request body is not valid JSON.') as Error & {
        statusCode: number;
      };
      error.statusCode = 400;
      done(error, undefined);
    }
  });
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) log(`request failed: ${error.name}: ${error.message}`);
    const message =
      status === 413
        ? 'The request is too large.'
        : status === 415
          ? 'Only JSON requests are accepted.'
          : status < 500
            ? error.message
            : 'Something went wrong inside the app. Please try again.';
    return refuse(reply, status, { kind: status < 500 ? 'bad-request' : 'internal', message });
  });

  app.setNotFoundHandler((_request, reply) =>
    refuse(reply, 404, { kind: 'not-found', message: 'Not found.' }),
  );

  registerApiRoutes(app, options.handlers, log);
  registerEventRoute(app, options.subscribe, streams, log);
  // A data folder with a profile opens on its book: the page is told to fetch the book's code
  // with its own (an empty folder's welcome screen loads nothing more).
  const bookTags = bookPreloadTags(options.staticDir);
  const hasProfiles: () => boolean | Promise<boolean> =
    options.hasProfiles ??
    (async () => (await options.handlers.profiles.list({}).catch(() => [])).length > 0);
  await registerStaticFiles(app, options.staticDir, async () =>
    (await hasProfiles()) ? bookTags : '',
  );

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The host has no port.');
  port = address.port;

  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    token,
    routes,
    async close() {
      // Open event streams would keep the server from closing.
      for (const end of [...streams]) end();
      await app.close();
    },
  };
}
