/**
 * The service address rule, the same for the profile form, the contract and the desk: https for
 * any host but this computer's loopback (where the built-in sandbox and local test services
 * live), no user name or password, nothing after the path.
 */

/**
 * The WHATWG URL parser every runtime of the app has (Node, Chromium), typed as far as used here:
 * shared/ compiles without the DOM's or Node's types.
 */
declare const URL: new (input: string) => ParsedAddress;
interface ParsedAddress {
  protocol: string;
  hostname: string;
  username: string;
  password: string;
  search: string;
  hash: string;
  origin: string;
  pathname: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether the host is this computer (plain http is allowed there only). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** What is wrong with the address, in the manager's words; null when it is a valid one. */
export function serviceAddressProblem(raw: string): string | null {
  const value = raw.trim();
  if (value === '' || value === 'https://') return 'Enter the service address.';
  let url: ParsedAddress;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full address, such as https://api.example.com.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'The address must start with https://.';
  }
  if (url.username || url.password) {
    return 'Leave the user name and password out of the address: the client id and secret have their own fields.';
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return 'Use https://. Plain http is only allowed for a service on this computer (localhost or 127.0.0.1).';
  }
  if (url.search || url.hash) return 'Leave out anything after the path (? or #).';
  return null;
}

/** The address as the desk stores it: origin and path, no trailing slash; null when unreadable. */
export function normalServiceAddress(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    return url.origin + url.pathname.replace(/\/+$/, '');
  } catch {
    return null;
  }
}
