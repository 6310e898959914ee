import { z } from 'zod';
import { method, none, ok, profileRef } from '../contract-parts';
import { uuid } from '../domain/resources';
import { profileView } from '../views';
import { serviceAddressProblem } from './service-address';

const profileName = z.string().trim().min(1, 'Give the profile a name').max(100);
const baseUrl = z
  .string()
  .trim()
  .min(1, 'Enter the service address')
  .max(2000)
  .superRefine((value, check) => {
    const problem = serviceAddressProblem(value);
    if (problem !== null) check.addIssue({ code: 'custom', message: problem });
  });
const clientId = z.string().trim().min(1, 'Enter the client id').max(200);
const secret = z.string().min(1, 'Enter the client secret').max(4096);

/** A profile: one service address with its client id and secret (the secret in the keychain). */
export const profilesContract = {
  list: method(none, z.array(profileView)),
  create: method(z.object({ name: profileName, baseUrl, clientId, secret }).strict(), profileView),
  update: method(
    z
      .object({
        profileId: uuid,
        name: profileName.optional(),
        baseUrl: baseUrl.optional(),
        clientId: clientId.optional(),
        secret: secret.optional(),
        /** A new address with no new secret: the manager confirmed the stored secret goes there. */
        sendSecretToNewAddress: z.literal(true).optional(),
      })
      .strict(),
    profileView,
  ),
  remove: method(profileRef, ok),
  testConnection: method(profileRef, z.object({ grantedScopes: z.array(z.string()).nullable() })),
  /**
   * Asks the service for a token with these details before they are saved (nothing is stored).
   * Without a secret, the stored one of `profileId` is used, under the same rule as update.
   */
  check: method(
    z
      .object({
        profileId: uuid.optional(),
        baseUrl,
        clientId,
        secret: secret.optional(),
        sendSecretToNewAddress: z.literal(true).optional(),
      })
      .strict(),
    z.object({ grantedScopes: z.array(z.string()).nullable() }),
  ),
  /** "Try the built-in sandbox": starts it in-process, creates its profile, adds the demo strategies. */
  useSandbox: method(none, profileView),
};

/** The profile's service became reachable or unreachable. */
export const profilesEvents = [
  z.object({
    type: z.literal('connectivity-changed'),
    profileId: uuid,
    online: z.boolean(),
    message: z.string().nullable(),
  }),
] as const;
