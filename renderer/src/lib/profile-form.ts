/** Field problems of the profile form ("Connect to your service" and "Edit profile"). */
export interface ProfileFields {
  name: string;
  baseUrl: string;
  clientId: string;
  secret: string;
}
export type ProfileProblems = Partial<Record<keyof ProfileFields, string>>;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether the host is this computer (plain http is allowed there only). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** https is required: plain http only for a service on this computer. */
export function baseUrlProblem(raw: string): string | null {
  const value = raw.trim();
  if (value === '' || value === 'https://') return 'Enter the service address.';
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
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return 'Use https://. Plain http is only allowed for a service on this computer (localhost or 127.0.0.1).';
  }
  if (url.search || url.hash) return 'Leave out anything after the path (? or #).';
  return null;
}

/**
 * Problems of the whole form. When editing, the secret is write-only: an empty
 * field keeps the stored one, unless none is stored (then it is required).
 */
export function profileProblems(
  fields: ProfileFields,
  mode: { editing: boolean; secretStored: boolean } = { editing: false, secretStored: false },
): ProfileProblems {
  const problems: ProfileProblems = {};
  if (fields.name.trim() === '') problems.name = 'Give the profile a name.';
  const url = baseUrlProblem(fields.baseUrl);
  if (url) problems.baseUrl = url;
  if (fields.clientId.trim() === '') problems.clientId = 'Enter the client id.';
  const secretNeeded = !mode.editing || !mode.secretStored;
  if (fields.secret === '' && secretNeeded) {
    problems.secret = mode.editing
      ? 'No secret is stored for this profile: enter the client secret.'
      : 'Enter the client secret.';
  }
  return problems;
}

/** Only what changed, for profiles.update; an empty secret means "keep the stored one". */
export function profileChanges(
  before: { name: string; baseUrl: string; clientId: string },
  fields: ProfileFields,
): Partial<ProfileFields> {
  const changes: Partial<ProfileFields> = {};
  if (fields.name.trim() !== before.name) changes.name = fields.name.trim();
  if (fields.baseUrl.trim() !== before.baseUrl) changes.baseUrl = fields.baseUrl.trim();
  if (fields.clientId.trim() !== before.clientId) changes.clientId = fields.clientId.trim();
  if (fields.secret !== '') changes.secret = fields.secret;
  return changes;
}

/** The field a desk error belongs to, so it shows in place (the desk checks the address too). */
export function fieldOfError(error: { kind: string; message: string }): keyof ProfileFields | null {
  if (error.kind !== 'invalid-input') return null;
  if (/address|https|url/i.test(error.message)) return 'baseUrl';
  if (/client id/i.test(error.message)) return 'clientId';
  if (/secret/i.test(error.message)) return 'secret';
  if (/name/i.test(error.message)) return 'name';
  return null;
}
