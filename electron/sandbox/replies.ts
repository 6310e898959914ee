import type { FastifyReply } from 'fastify';

/** The two error shapes of docs/decisions.md (Authentication, Errors). */

/** Resource errors: `{errors: {detail, <field>: [...]}}`. */
export function resourceError(
  reply: FastifyReply,
  status: number,
  detail: string,
  fields: Record<string, unknown> = {},
): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ errors: { detail, ...fields } });
}

/** Token endpoint errors: OAuth2 `{error, error_description}`. */
export function oauthError(
  reply: FastifyReply,
  status: number,
  error: 'invalid_request' | 'invalid_scope' | 'invalid_client' | 'rate_limited',
  description: string,
): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .type('application/json; charset=utf-8')
    .send({ error, error_description: description });
}

export const TOKEN_PATH = '/api/auth/token';

export type RouteKind = 'token' | 'api' | 'admin' | 'other';

/** Which part of the sandbox a URL belongs to (decides error shapes and faults). */
export function routeKind(url: string): RouteKind {
  const path = url.split('?')[0]!;
  if (path === TOKEN_PATH) return 'token';
  if (path === '/sandbox' || path.startsWith('/sandbox/')) return 'admin';
  if (path.startsWith('/api/')) return 'api';
  return 'other';
}
