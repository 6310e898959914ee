/**
 * What to tell the manager when the keychain is out of reach, in plain words with the one command
 * that fixes it. keytar is an optional dependency (docs/install.md): npm drops it when its native
 * part cannot be built, so "not installed" is the usual case on a machine without libsecret.
 */
export type KeychainProblem =
  /** npm left keytar out (its build failed) or it was never installed. */
  | 'not-installed'
  /** keytar is there but its native part does not load (missing build or system library). */
  | 'native-part'
  /** keytar loaded but no keychain service answered (Linux: no Secret Service on D-Bus). */
  | 'no-answer';

/** Where the problem lies, from the error keytar's import or its probe raised. */
export function classifyKeychainError(stage: 'load' | 'probe', error: unknown): KeychainProblem {
  if (stage === 'probe') return 'no-answer';
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const keytarItselfMissing =
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    // 'keytar' itself, or a file inside the package (the Electron bundle requires one).
    /['"]keytar(\/[^'"]*)?['"]/.test(message);
  return keytarItselfMissing ? 'not-installed' : 'native-part';
}

/** The system package that keytar needs to build on Linux, per family of distributions. */
const LIBSECRET_INSTALL =
  'sudo apt install libsecret-1-dev (Fedora: sudo dnf install libsecret-devel)';

/** The fix, as a sentence naming the commands to run in the app's folder. */
export function keychainRemedy(problem: KeychainProblem, platform: NodeJS.Platform): string {
  const linux = platform === 'linux';
  switch (problem) {
    case 'not-installed':
      return linux
        ? `To keep secrets across restarts, run ${LIBSECRET_INSTALL}, then npm install.`
        : 'To keep secrets across restarts, run npm install.';
    case 'native-part':
      return linux
        ? `To keep secrets across restarts, run ${LIBSECRET_INSTALL}, then npm rebuild keytar.`
        : 'To keep secrets across restarts, run npm rebuild keytar.';
    case 'no-answer':
      return linux
        ? 'To keep secrets across restarts, sign in to a desktop session with a Secret Service ' +
            '(GNOME Keyring: sudo apt install gnome-keyring, or KWallet).'
        : 'To keep secrets across restarts, unlock the system keychain and restart the app.';
  }
}

/** The plain-words reason shown to the manager while secrets are kept for the session only. */
export function keychainFallbackReason(
  problem: KeychainProblem,
  detail: string,
  platform: NodeJS.Platform,
): string {
  const what =
    problem === 'no-answer'
      ? `No keychain answered (${detail})`
      : `The keychain module keytar ${problem === 'not-installed' ? 'is not installed' : 'did not load'} (${detail})`;
  return `${what}: the secret is kept for this session only. ${keychainRemedy(problem, platform)}`;
}
