/** Field problems of the "Connect to your service" form, in the manager's words. */
export interface ProfileFields {
  name: string;
  baseUrl: string;
  clientId: string;
  secret: string;
}
export type ProfileProblems = Partial<Record<keyof ProfileFields, string>>;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https is required: plain http only for a service on this computer. */
export function baseUrlProblem(raw: string): string | null {
  const value = raw.trim();
  if (value === '') return 'Enter the service address.';
  let url: URL;
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
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    return 'Use https://. Plain http is only allowed for a service on this computer (localhost or 127.0.0.1).';
  }
  if (url.search || url.hash) return 'Leave out anything after the path (? or #).';
  return null;
}

export function profileProblems(fields: ProfileFields): ProfileProblems {
  const problems: ProfileProblems = {};
  if (fields.name.trim() === '') problems.name = 'Give the profile a name.';
  const url = baseUrlProblem(fields.baseUrl);
  if (url) problems.baseUrl = url;
  if (fields.clientId.trim() === '') problems.clientId = 'Enter the client id.';
  if (fields.secret === '') problems.secret = 'Enter the client secret.';
  return problems;
}
