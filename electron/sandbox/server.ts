import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { registerAdminRoutes } from './admin';
import { registerApiRoutes } from './api-routes';
import type { SandboxContext } from './context';
import { consume, dripped, failsStrategy, takeReply, truncated, withWrongTypes } from './faults';
import { withOffsetTimestamps } from './offset-timestamps';
import { oauthError, resourceError, routeKind } from './replies';
import { registerTokenRoute } from './token-route';

/** Bodies above this are refused with a 400 (a target of 1000 positions is about 50 KiB). */
export const BODY_LIMIT = 1024 * 1024;

/**
 * The sandbox's HTTP server: fastify routes plus the hooks that apply faults,
 * guard the admin routes, and map every framework error to the documented shapes.
 */
export function buildServer(
  ctx: SandboxContext,
  options: { logger?: boolean } = {},
): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    // Long path ids still reach the route and get the documented 400, not a 404.
    routerOptions: { maxParamLength: 16_384 },
    // Bad URLs (broken percent-encoding) and the like: the documented 400, not fastify's shape.
    frameworkErrors: (error, request, reply) => badRequest(request, reply, error.message),
  });

  // Bodies are kept as text and parsed by each route, so that a body that is
  // not JSON is a 400 that comes after the 401/403 checks, in our shapes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.decorateRequest('grant', null);

  app.addHook('onRequest', async (request, reply) => {
    switch (routeKind(request.url)) {
      case 'admin':
        if (request.headers['x-sandbox-admin'] !== '1') {
          return resourceError(
            reply,
            403,
            'Sandbox admin routes need the header X-Sandbox-Admin: 1.',
          );
        }
        return;
      case 'token': {
        ctx.tokenRequests += 1;
        if (ctx.faults.latency_ms > 0) await ctx.sleep(ctx.faults.latency_ms);
        const rule = ctx.faults.token_rate_limit;
        const wait = rule ? ctx.tokenWindow.take(rule) : 0;
        if (wait > 0) {
          reply.header('retry-after', String(wait));
          return oauthError(
            reply,
            429,
            'rate_limited',
            `Too many token requests; retry in ${wait} s.`,
          );
        }
        return;
      }
      case 'api': {
        ctx.apiRequests += 1;
        if (ctx.faults.latency_ms > 0) await ctx.sleep(ctx.faults.latency_ms);
        const rule = ctx.faults.api_rate_limit;
        const wait = rule ? ctx.apiWindow.take(rule) : 0;
        if (wait > 0) {
          reply.header('retry-after', String(wait));
          return resourceError(reply, 429, `Too many requests; retry in ${wait} s.`);
        }
        const canned = takeReply(ctx.faults);
        if (canned) return reply.code(canned.status).type(canned.content_type).send(canned.body);
        const failRate = ctx.faults.fail_rate;
        const method = ctx.faults.fail_next_method;
        const counts = method === null || method === request.method;
        if (
          (counts && consume(ctx.faults, 'fail_next')) ||
          (failRate > 0 && Math.random() < failRate) ||
          failsStrategy(ctx.faults, request.url)
        ) {
          const status = ctx.faults.fail_status;
          if (status === 429) reply.header('retry-after', '1');
          return resourceError(reply, status, `The sandbox injected a ${status} fault.`);
        }
        return;
      }
      default:
        return;
    }
  });

  // Before the other answer faults, which may leave a body that no longer parses.
  app.addHook('onSend', async (request, reply, payload) => {
    const minutes = ctx.faults.timestamp_offset_minutes;
    if (minutes === null || routeKind(request.url) !== 'api' || typeof payload !== 'string')
      return payload;
    if (reply.statusCode < 200 || reply.statusCode > 299 || !payload.startsWith('{'))
      return payload;
    return JSON.stringify(withOffsetTimestamps(JSON.parse(payload), minutes));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (
      request.method !== 'GET' ||
      routeKind(request.url) !== 'api' ||
      reply.statusCode !== 200 ||
      typeof payload !== 'string'
    ) {
      return payload;
    }
    if (consume(ctx.faults, 'malformed_json_next')) return truncated(payload);
    if (consume(ctx.faults, 'wrong_types_next'))
      return JSON.stringify(withWrongTypes(JSON.parse(payload)));
    return payload;
  });

  // Registered after the body faults above, so a dripped body is the one they produced.
  app.addHook('onSend', async (request, reply, payload) => {
    const drip = ctx.faults.drip;
    if (!drip || routeKind(request.url) !== 'api' || typeof payload !== 'string') return payload;
    reply.header('content-length', Buffer.byteLength(payload, 'utf8'));
    return dripped(payload, drip, (ms) => ctx.sleep(ms));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error(error);
      return resourceError(reply, 500, 'The sandbox failed to answer this request.');
    }
    return badRequest(request, reply, describeFrameworkError(error));
  });

  app.setNotFoundHandler((request, reply) =>
    resourceError(reply, 404, `There is no ${request.method} ${request.url.split('?')[0]} here.`),
  );

  registerTokenRoute(app, ctx);
  registerApiRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  return app;
}

function badRequest(request: FastifyRequest, reply: FastifyReply, detail: string) {
  if (routeKind(request.url) === 'token') return oauthError(reply, 400, 'invalid_request', detail);
  return resourceError(reply, 400, detail);
}

function describeFrameworkError(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The body is larger than the limit of ${BODY_LIMIT} bytes.`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The Content-Length header does not match the body.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return 'The Content-Type header is not valid; send application/json.';
    default:
      return `The request is not valid: ${error.message}`;
  }
}
