import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { DeskErrorWire } from '../../shared/views';
import { CONTENT_SECURITY_POLICY } from '../transport/content-policy';

/** A fresh secret per launch: whoever can read it may drive the app, so it never goes in a log. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares in constant time so the token cannot be guessed byte by byte from response times. */
export function tokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  // Compare against itself on a length mismatch so both paths take the same time.
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header.trim());
  return match?.[1];
}

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

export function refuse(reply: FastifyReply, status: number, error: DeskErrorWire): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').send({ ok: false, error });
}

/**
 * The Host header must name our loopback address: a page on another site whose DNS name was
 * rebound to 127.0.0.1 sends its own name and is refused.
 */
export function allowedHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/**
 * Browsers send Origin on cross-origin calls and on most same-origin POSTs; when present it must
 * be exactly the origin the page was loaded from. Sec-Fetch-Site tells the same story for
 * browsers that send it.
 */
export function crossSiteReason(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${request.headers.host ?? ''}`) {
    return 'Calls from another site are refused.';
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return 'Calls from another site are refused.';
  }
  return null;
}

/**
 * The check every guarded route runs before its handler: the call must come from our own page
 * (Origin, Sec-Fetch-Site) and carry the per-launch token.
 */
export function guardCalls(token: string): onRequestAsyncHookHandler {
  return async (request, reply) => {
    const crossSite = crossSiteReason(request);
    if (crossSite) return refuse(reply, 403, { kind: 'forbidden', message: crossSite });
    if (!tokenMatches(token, bearerToken(request))) {
      return refuse(reply, 401, {
        kind: 'unauthorized',
        message:
          'This page has no valid access key. Open the address printed when the app started.',
      });
    }
  };
}
