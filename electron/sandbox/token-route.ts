import type { FastifyInstance } from 'fastify';
import { findClient, grantScopes, parseBasic, scopeString } from './auth';
import type { SandboxContext } from './context';
import { oauthError, TOKEN_PATH } from './replies';
import { jsonDepth, MAX_JSON_DEPTH, tokenBody } from './validation';

/**
 * POST /api/auth/token: client credentials as JSON or HTTP Basic, an optional
 * scope subset, OAuth2 error bodies.
 */
export function registerTokenRoute(app: FastifyInstance, ctx: SandboxContext): void {
  app.post(TOKEN_PATH, async (request, reply) => {
    const basic = parseBasic(request.headers.authorization);
    if (basic.kind === 'malformed') {
      return oauthError(
        reply,
        400,
        'invalid_request',
        'The Authorization header must be HTTP Basic: base64 of client_id:client_secret.',
      );
    }
    const body = readBody(request.body, request.headers['content-type'], basic.kind === 'ok');
    if (!body.ok) return oauthError(reply, 400, 'invalid_request', body.detail);
    const fields = tokenBody.safeParse(body.value);
    if (!fields.success) {
      return oauthError(reply, 400, 'invalid_request', fields.error.issues[0]!.message);
    }
    const { client_id, client_secret, scope } = fields.data;
    let clientId: string;
    let clientSecret: string;
    if (basic.kind === 'ok') {
      if (client_id !== undefined || client_secret !== undefined) {
        return oauthError(
          reply,
          400,
          'invalid_request',
          'Send the client credentials either in the Basic header or in the body, not both.',
        );
      }
      clientId = basic.clientId;
      clientSecret = basic.clientSecret;
    } else {
      const missing = [
        client_id === undefined ? 'client_id' : null,
        client_secret === undefined ? 'client_secret' : null,
      ].filter((m) => m !== null);
      if (missing.length > 0) {
        return oauthError(
          reply,
          400,
          'invalid_request',
          `The request needs ${missing.join(' and ')}.`,
        );
      }
      clientId = client_id!;
      clientSecret = client_secret!;
    }
    const client = findClient(clientId, clientSecret);
    if (!client) {
      if (basic.kind === 'ok') reply.header('www-authenticate', 'Basic realm="sandbox"');
      return oauthError(reply, 401, 'invalid_client', 'The client id or secret is not correct.');
    }
    const granted = grantScopes(client, scope);
    if (!granted.ok) {
      const detail =
        granted.unknown.length > 0
          ? `This client may not have the scope ${granted.unknown.join(', ')}; it may have: ${client.scopes.join(' ')}.`
          : 'scope names no scope; leave it out to get every scope of the client.';
      return oauthError(reply, 400, 'invalid_scope', detail);
    }
    const lifetime = ctx.faults.token_lifetime_s;
    return reply
      .header('cache-control', 'no-store')
      .header('pragma', 'no-cache')
      .send({
        access_token: ctx.tokens.issue(client, granted.scopes, lifetime),
        token_type: 'Bearer',
        expires_in: lifetime,
        scope: scopeString(granted.scopes),
      });
  });
}

type BodyRead = { ok: true; value: unknown } | { ok: false; detail: string };

/** A JSON object; with Basic credentials the body may be empty. */
function readBody(raw: unknown, contentType: string | undefined, hasBasic: boolean): BodyRead {
  const text = typeof raw === 'string' ? raw : '';
  if (text.trim() === '') {
    return hasBasic
      ? { ok: true, value: {} }
      : { ok: false, detail: 'The body must be JSON {"client_id": ..., "client_secret": ...}.' };
  }
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (media !== 'application/json') {
    return { ok: false, detail: 'The body must be JSON sent with Content-Type: application/json.' };
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    return { ok: false, detail: `The body is nested more than ${MAX_JSON_DEPTH} levels deep.` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, detail: `The body is not valid JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, detail: 'The body must be a JSON object.' };
  }
  return { ok: true, value };
}
