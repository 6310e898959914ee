import {
  isLoopbackHost,
  serviceAddressProblem as baseUrlProblem,
  normalServiceAddress as normalAddress,
} from '../../../shared/profiles/service-address';
import { isKind } from '../../../shared/errors';
import type { DeskErrorKind } from '../../../shared/views';

/** Field problems of the profile form ("Connect to your service" and "Edit profile"). */
export interface ProfileFields {
  name: string;
  baseUrl: string;
  clientId: string;
  secret: string;
}
export type ProfileProblems = Partial<Record<keyof ProfileFields, string>>;

// The same rule the main process applies to a service address.
export { baseUrlProblem, isLoopbackHost, normalAddress };

/** Whether the form moves the profile to another service (its stored secret must not follow). */
export function addressChanged(before: { baseUrl: string }, fields: ProfileFields): boolean {
  return normalAddress(fields.baseUrl) !== normalAddress(before.baseUrl);
}

export interface ProfileFormMode {
  editing: boolean;
  secretStored: boolean;
  /** Editing moves the profile to another address. */
  addressChanged?: boolean;
  /** The manager ticked "send the stored secret to the new address". */
  sendStoredSecret?: boolean;
}

/**
 * Problems of the whole form. When editing, the secret is write-only: an empty field keeps the
 * stored one, unless none is stored, or the address changed and the manager did not confirm that
 * the stored secret may go to the new one (then it is required).
 */
export function profileProblems(
  fields: ProfileFields,
  mode: ProfileFormMode = { editing: false, secretStored: false },
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
  } else if (fields.secret === '' && mode.addressChanged && !mode.sendStoredSecret) {
    problems.secret = NEW_ADDRESS_SECRET;
  }
  return problems;
}

export const NEW_ADDRESS_SECRET =
  'The address changed: enter the client secret for the new address, or confirm below that the stored secret may be sent there.';

export type ProfileUpdate = Partial<ProfileFields> & { sendSecretToNewAddress?: true };

/** Only what changed, for profiles.update; an empty secret means "keep the stored one". */
export function profileChanges(
  before: { name: string; baseUrl: string; clientId: string },
  fields: ProfileFields,
  sendStoredSecret = false,
): ProfileUpdate {
  const changes: ProfileUpdate = {};
  if (fields.name.trim() !== before.name) changes.name = fields.name.trim();
  if (fields.baseUrl.trim() !== before.baseUrl) changes.baseUrl = fields.baseUrl.trim();
  if (fields.clientId.trim() !== before.clientId) changes.clientId = fields.clientId.trim();
  if (fields.secret !== '') changes.secret = fields.secret;
  else if (sendStoredSecret && addressChanged(before, fields))
    changes.sendSecretToNewAddress = true;
  return changes;
}

/** The field a desk error belongs to, so it shows in place (the desk checks the address too). */
export function fieldOfError(error: { kind: string; message: string }): keyof ProfileFields | null {
  if (isKind(error, 'secret-needed-for-new-address')) return 'secret';
  if (!isKind(error, 'invalid-input')) return null;
  if (/address|https|url/i.test(error.message)) return 'baseUrl';
  if (/client id/i.test(error.message)) return 'clientId';
  if (/secret/i.test(error.message)) return 'secret';
  if (/name/i.test(error.message)) return 'name';
  return null;
}

/** Whether saving would send the service other credentials than before (then they are checked). */
export function credentialsChanged(
  before: { baseUrl: string; clientId: string },
  fields: ProfileFields,
): boolean {
  return (
    addressChanged(before, fields) ||
    fields.clientId.trim() !== before.clientId ||
    fields.secret !== ''
  );
}

/** Kinds of failure where the service gave no usable answer: the details may still be right. */
const UNREACHABLE = ['network', 'timeout', 'server', 'rate-limited'] as const;

export type CheckOutcome =
  | { kind: 'unreachable' }
  | { kind: 'field'; field: keyof ProfileFields; message: string }
  | { kind: 'other' };

/** What a failed check before saving means for the form. */
export function checkOutcome(error: { kind: DeskErrorKind; message: string }): CheckOutcome {
  if (isKind(error, ...UNREACHABLE)) return { kind: 'unreachable' };
  if (isKind(error, 'invalid-client')) {
    return {
      kind: 'field',
      field: 'secret',
      message: 'The service refused this client id and secret: check both. Nothing was saved.',
    };
  }
  if (isKind(error, 'not-found', 'bad-response')) {
    return {
      kind: 'field',
      field: 'baseUrl',
      message: `No token service answered at this address: check it. Nothing was saved. (${error.message})`,
    };
  }
  return { kind: 'other' };
}

/** The hint under the secret field: where the secret will be kept, said as it is. */
export function secretHint(mode: {
  editing: boolean;
  secretStored: boolean;
  addressChanged: boolean;
  storage: 'keychain' | 'session' | null;
}): string {
  if (mode.editing && mode.addressChanged) {
    return 'The address changed: enter the secret for the new address, or tick the box below.';
  }
  if (mode.editing && mode.secretStored) {
    return 'Leave empty to keep the stored secret. It is never shown again.';
  }
  if (mode.editing) return 'No secret is stored for this profile: enter it to connect.';
  if (mode.storage === 'keychain') return 'Kept in the OS keychain, never written to a file.';
  if (mode.storage === 'session') {
    return 'No keychain answered: kept in memory for this session only (enter it again after a restart), never written to a file.';
  }
  return 'Never written to a file.';
}
