import { DeskError } from '../../../shared/errors';

/**
 * The team store's refusals and faults in the desk's words (a DeskError of a named kind). The
 * database's own sentences for its DK refusals (001-team.ts) are written for managers and kept;
 * connection faults say what the team store is needed for, so an action never fails in silence.
 */

/** PostgreSQL refusals the team store's functions raise (001-team.ts, 005-…), by SQLSTATE. */
const REFUSALS: Record<
  string,
  | 'approval-required'
  | 'approval-outdated'
  | 'team-refused'
  | 'confirmation-outdated'
  | 'invalid-input'
  | 'model-not-found'
> = {
  DK001: 'approval-required',
  DK002: 'approval-outdated',
  DK003: 'team-refused', // approving one's own submission
  DK004: 'team-refused', // a claim another desk holds
  DK005: 'team-refused', // a submission gone or decided already
  DK006: 'confirmation-outdated', // a model revision saved since the editor opened (005)
  DK007: 'invalid-input', // a model without a name, or the same weights again (005)
  DK008: 'model-not-found', // a model or a revision not in the team's library (005)
  '42501': 'team-refused', // a role the member lacks
};

const LOGIN_REFUSED = new Set(['28P01', '28000', '3D000']);
const CERTIFICATE = /CERT|certificate|ERR_TLS|self.signed|altnames/i;

/** `need`: what the action needs the team store for, "to submit for approval". */
export function teamError(error: unknown, need: string, where: string): Error {
  if (error instanceof DeskError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string' && REFUSALS[code]) {
    const kind = REFUSALS[code]!;
    const words =
      kind === 'approval-required' || kind === 'approval-outdated' ? ' Nothing was sent.' : '';
    return new DeskError({ kind, message: `${message}${words}` });
  }
  // Any other answer of the server (not a lost connection, class 08, 53 or 57) is the app's own
  // fault: it stays as it is and is logged as internal.
  if (
    typeof code === 'string' &&
    /^[0-9A-Z]{5}$/.test(code) &&
    !LOGIN_REFUSED.has(code) &&
    !/^(08|53|57)/.test(code)
  )
    return error as Error;
  if (typeof code === 'string' && LOGIN_REFUSED.has(code))
    return new DeskError({
      kind: 'team-refused',
      message: `The team store at ${where} refused this member's login (${message}): check the member name and enter the password again. The team store is needed ${need}.`,
    });
  if (CERTIFICATE.test(`${String(code)} ${message}`))
    return new DeskError({
      kind: 'team-unavailable',
      message: `The team store at ${where} did not show a certificate the CA file vouches for under that name (${message}). The team store is needed ${need}.`,
    });
  return new DeskError({
    kind: 'team-unavailable',
    message: `The team store at ${where} cannot be reached (${message}). The team store is needed ${need}; drafting goes on without it.`,
  });
}

/** The password is asked for by the pool; a missing one is said plainly. */
export const noTeamPassword = (where: string) =>
  new DeskError({
    kind: 'team-refused',
    message: `The team password of this profile is not stored: join the team at ${where} again with it.`,
  });
