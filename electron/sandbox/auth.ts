import { randomBytes } from 'node:crypto';
import type { Scope } from '../../shared/domain/resources';
import { SCOPES } from '../../shared/domain/resources';
import { SANDBOX_CLIENTS, type SandboxClient } from './demo-data';

/** Client credentials and opaque bearer tokens. */

export interface TokenGrant {
  client: SandboxClient;
  scopes: ReadonlySet<Scope>;
  expiresAt: number;
}

export type TokenLookup =
  | { ok: true; grant: TokenGrant }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'expired' };

export function findClient(clientId: string, clientSecret: string): SandboxClient | undefined {
  return SANDBOX_CLIENTS.find((c) => c.client_id === clientId && c.client_secret === clientSecret);
}

export class TokenStore {
  private readonly tokens = new Map<string, TokenGrant>();

  issue(client: SandboxClient, scopes: ReadonlySet<Scope>, lifetimeS: number): string {
    this.purgeExpired();
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, { client, scopes, expiresAt: Date.now() + lifetimeS * 1000 });
    return token;
  }

  /** Reads an `Authorization: Bearer <token>` header. */
  check(authorization: string | undefined): TokenLookup {
    if (authorization === undefined || authorization.trim() === '')
      return { ok: false, reason: 'missing' };
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
    if (!match) return { ok: false, reason: 'malformed' };
    const grant = this.tokens.get(match[1]!);
    if (!grant) return { ok: false, reason: 'unknown' };
    if (grant.expiresAt <= Date.now()) {
      this.tokens.delete(match[1]!);
      return { ok: false, reason: 'expired' };
    }
    return { ok: true, grant };
  }

  private purgeExpired(): void {
    const now = Date.now();
    for (const [token, grant] of this.tokens) if (grant.expiresAt <= now) this.tokens.delete(token);
  }
}

export type BasicCredentials =
  { kind: 'none' } | { kind: 'malformed' } | { kind: 'ok'; clientId: string; clientSecret: string };

/** HTTP Basic client authentication (RFC 6749 2.3.1: each part form-urlencoded). */
export function parseBasic(authorization: string | undefined): BasicCredentials {
  if (authorization === undefined) return { kind: 'none' };
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  if (!match) return { kind: 'malformed' };
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { kind: 'malformed' };
  try {
    return {
      kind: 'ok',
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return { kind: 'malformed' };
  }
}

export type ScopeRequest = { ok: true; scopes: Set<Scope> } | { ok: false; unknown: string[] };

/** A requested scope must be a subset of the client's; none requested grants them all. */
export function grantScopes(client: SandboxClient, requested: string | undefined): ScopeRequest {
  if (requested === undefined) return { ok: true, scopes: new Set(client.scopes) };
  const names = requested.split(' ').filter((s) => s !== '');
  const notAllowed = names.filter((s) => !(client.scopes as readonly string[]).includes(s));
  if (names.length === 0 || notAllowed.length > 0) return { ok: false, unknown: notAllowed };
  return { ok: true, scopes: new Set(names as Scope[]) };
}

/** Space-separated, in the service's canonical order. */
export function scopeString(scopes: ReadonlySet<Scope>): string {
  return SCOPES.filter((s) => scopes.has(s)).join(' ');
}

/** An RFC 6750 challenge; quotes and backslashes cannot appear in our descriptions. */
export function bearerChallenge(params: {
  error?: string;
  description?: string;
  scope?: string;
}): string {
  const parts = ['realm="sandbox"'];
  if (params.error) parts.push(`error="${params.error}"`);
  if (params.description)
    parts.push(`error_description="${params.description.replace(/["\\]/g, "'")}"`);
  if (params.scope) parts.push(`scope="${params.scope}"`);
  return `Bearer ${parts.join(', ')}`;
}
