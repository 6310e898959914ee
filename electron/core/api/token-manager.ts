import { ServiceError, redactError } from './errors';
import { errorFromResponse } from './error-mapping';
import type { HttpResponse } from './http';
import { badResponse, parseBody, tokenResponse } from './schemas';

/**
 * The bearer token of one profile, in memory only. One token request at a time (single-flight):
 * any number of callers racing an expired token share one request. The token is renewed 60 s
 * before it expires, or at half its life when the service grants less than two minutes; one
 * without a lifetime is taken to live ASSUMED_LIFETIME_S (and any token is renewed on a 401).
 */

export interface TokenInfo {
  /**
   * Scopes the service granted, from the token response's `scope`; null when it did not say
   * (unknown: actions stay enabled and a 403 is explained when it comes).
   */
  grantedScopes: string[] | null;
  /** When the token expires (ms since epoch), as the service says or as assumed. */
  expiresAt: number;
  /** False when the service gave no lifetime and ASSUMED_LIFETIME_S is assumed. */
  lifetimeKnown: boolean;
}

/** A token with no `expires_in` is taken to live this long (renewed before, and on a 401). */
export const ASSUMED_LIFETIME_S = 300;

interface Token extends TokenInfo {
  /** `Bearer <token>`, built once and reused on every request. */
  header: string;
  refreshAt: number;
}

export interface TokenManagerOptions {
  clientId: string;
  getSecret: () => Promise<string>;
  /** POSTs the token request body (JSON) to the token endpoint, with the read retry policy. */
  postToken: (body: string) => Promise<HttpResponse>;
  now?: () => number;
}

export class TokenManager {
  private token: Token | undefined;
  private inflight: Promise<Token> | undefined;
  private requests = 0;
  /** The client secret last sent to the token endpoint, kept only to redact its echoes. */
  private secretSent: string | undefined;
  private readonly now: () => number;

  constructor(private readonly options: TokenManagerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The cached Authorization header while it is fresh; undefined when a request is needed. */
  current(): string | undefined {
    const t = this.token;
    return t !== undefined && this.now() < t.refreshAt ? t.header : undefined;
  }

  /** A fresh Authorization header, requesting a token if needed (shared by concurrent callers). */
  async authorization(): Promise<string> {
    return this.current() ?? (await this.fetch()).header;
  }

  async info(): Promise<TokenInfo> {
    const t = this.current() !== undefined ? this.token! : await this.fetch();
    return {
      grantedScopes: t.grantedScopes && [...t.grantedScopes],
      expiresAt: t.expiresAt,
      lifetimeKnown: t.lifetimeKnown,
    };
  }

  /** Drop the token a request was refused with; a newer token (already renewed) is kept. */
  invalidate(header?: string): void {
    if (header === undefined || this.token?.header === header) this.token = undefined;
  }

  /** The token held now, fresh or not (for redaction only). */
  liveToken(): string | undefined {
    return this.token?.header.slice('Bearer '.length);
  }

  /** The scopes of the token held; null without a token or when the service did not say. */
  grantedScopes(): string[] | null {
    return this.token?.grantedScopes ? [...this.token.grantedScopes] : null;
  }

  /** Whether a token is held (fresh or not): its scopes are then known or said to be unknown. */
  hasToken(): boolean {
    return this.token !== undefined;
  }

  /** Token requests sent so far (tests and the bench check single-flight with it). */
  get requestCount(): number {
    return this.requests;
  }

  clear(): void {
    this.token = undefined;
  }

  /**
   * Redact the current token, `sent` (the header a failed request carried, when another token
   * has replaced it since) and the last client secret sent from a text-bearing error: a resource
   * that echoes either must not put it where errors go (the journal, the log, the page).
   */
  redact(e: ServiceError, sent?: string): ServiceError {
    const bearer = (header: string | undefined) => header?.slice('Bearer '.length);
    return redactError(e, [bearer(this.token?.header), bearer(sent), this.secretSent]);
  }

  private fetch(): Promise<Token> {
    if (this.inflight) return this.inflight;
    const p = this.request().finally(() => {
      if (this.inflight === p) this.inflight = undefined;
    });
    this.inflight = p;
    return p;
  }

  private async request(): Promise<Token> {
    let secret: string;
    try {
      secret = await this.options.getSecret();
    } catch (e) {
      throw new ServiceError({
        kind: 'no-secret',
        operation: 'token',
        message: `The client secret for this profile could not be read${
          e instanceof Error && e.message ? ` (${e.message})` : ''
        }`,
        cause: e,
      });
    }
    if (!secret) {
      throw new ServiceError({
        kind: 'no-secret',
        operation: 'token',
        message: 'No client secret is stored for this profile',
      });
    }
    const issuedAt = this.now();
    this.requests++;
    this.secretSent = secret;
    let res: HttpResponse;
    try {
      res = await this.options.postToken(
        JSON.stringify({ client_id: this.options.clientId, client_secret: secret }),
      );
    } catch (e) {
      throw e instanceof ServiceError ? redactError(e, [secret]) : e;
    }
    if (res.status < 200 || res.status >= 300) {
      throw redactError(
        errorFromResponse({
          operation: 'token',
          status: res.status,
          headers: res.headers,
          text: res.text,
        }),
        [secret],
      );
    }
    const body = parseBody(tokenResponse, res.text, 'token');
    if (body.token_type.toLowerCase() !== 'bearer')
      throw badResponse('token', [
        `token_type: expected Bearer, got ${body.token_type.slice(0, 20)}`,
      ]);
    const said = body.expires_in;
    const lifetimeKnown = typeof said === 'number' && Number.isFinite(said) && said > 0;
    const lifetimeS = lifetimeKnown ? said : ASSUMED_LIFETIME_S;
    const lifetimeMs = lifetimeS * 1000;
    // Renew early: 60 s before expiry, or at half-life for short-lived tokens.
    const margin = lifetimeS > 120 ? 60_000 : lifetimeMs / 2;
    const token: Token = {
      header: `Bearer ${body.access_token}`,
      grantedScopes: scopesOf(body.scope),
      expiresAt: issuedAt + lifetimeMs,
      lifetimeKnown,
      refreshAt: issuedAt + lifetimeMs - margin,
    };
    this.token = token;
    return token;
  }
}

/** The granted scopes from `scope` (space-separated, or a list); null when it says none. */
function scopesOf(scope: string | string[] | null | undefined): string[] | null {
  const names = (Array.isArray(scope) ? scope.join(' ') : (scope ?? ''))
    .split(/\s+/)
    .filter(Boolean);
  return names.length > 0 ? names : null;
}
