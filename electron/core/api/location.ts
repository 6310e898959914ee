/**
 * Where the app follows an accepted execution. The execute answer's `Location` is read as RFC
 * 9110 §10.2.2 says: a relative reference is resolved against the execute request's own address.
 * It is followed only on the profile's own origin (the token goes nowhere else), only when it
 * names the accepted version, and always with the includes the app reads (orders and positions,
 * whatever the Location asked for). Otherwise the version from the 202 body is followed at the
 * interface's own path on the profile's origin, and the reason is kept for the activity log.
 */

/** The query a followed version is read with: the detail needs its orders and positions. */
export const FOLLOW_INCLUDE = 'include=orders,positions';

export interface FollowAddress {
  /** Path and query on the profile's origin, always with FOLLOW_INCLUDE. */
  location: string;
  /** The Location header as the service sent it; null when it sent none. */
  given: string | null;
  /** Why the given Location is not what the app follows; null when it is. */
  note: string | null;
}

export interface FollowContext {
  /** The execute request's absolute URL: the base of a relative Location. */
  requestUrl: string;
  /** The profile's origin: the only one that ever gets the token. */
  origin: string;
  /** The interface's path of this version on the profile's service (no query). */
  interfacePath: string;
  versionId: string;
}

/** `pathAndQuery` with its `include` parameter set to the includes the app reads (others kept). */
export function withIncludes(pathAndQuery: string): string {
  const at = pathAndQuery.indexOf('?');
  const path = at === -1 ? pathAndQuery : pathAndQuery.slice(0, at);
  const query = at === -1 ? '' : pathAndQuery.slice(at + 1);
  const kept = query.split('&').filter((p) => p !== '' && !/^include(=|$)/i.test(p));
  return `${path}?${[...kept, FOLLOW_INCLUDE].join('&')}`;
}

export function followAddress(header: string | undefined, ctx: FollowContext): FollowAddress {
  const given = header?.trim() || null;
  const own = withIncludes(ctx.interfacePath);
  const instead = (why: string): FollowAddress => ({
    location: own,
    given,
    note: `${why}: it was not followed, and the version is read at its address in the service interface on ${ctx.origin} instead.`,
  });
  if (given === null) return instead('The service gave no Location for the new version');
  let url: URL;
  try {
    url = new URL(given, ctx.requestUrl);
  } catch {
    return instead(`The service's Location (${shorten(given)}) is not an address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return instead(`The service's Location (${shorten(given)}) is not a web address`);
  if (url.origin !== ctx.origin)
    return instead(
      `The service's Location points to ${url.origin}, not to the profile's ${ctx.origin}; the access token is sent only there`,
    );
  if (!url.pathname.toLowerCase().includes(ctx.versionId.toLowerCase()))
    return instead(`The service's Location (${shorten(given)}) does not name the accepted version`);
  return { location: withIncludes(url.pathname + url.search), given, note: null };
}

function shorten(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is taken out
  const flat = text.replace(/[\x00-\x1f\x7f]/g, ' ');
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
