import { describe, expect, it } from 'vitest';
import {
  classifyKeychainError,
  keychainFallbackReason,
  keychainRemedy,
} from '../../../../electron/core/secrets';

const missing = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('classifyKeychainError', () => {
  it('tells keytar left out by npm from a native part that does not load', () => {
    expect(
      classifyKeychainError(
        'load',
        missing('ERR_MODULE_NOT_FOUND', "Cannot find package 'keytar'"),
      ),
    ).toBe('not-installed');
    expect(
      classifyKeychainError('load', missing('MODULE_NOT_FOUND', "Cannot find module 'keytar'")),
    ).toBe('not-installed');
    expect(
      classifyKeychainError(
        'load',
        missing('MODULE_NOT_FOUND', "Cannot find module 'keytar/lib/keytar.js'"),
      ),
    ).toBe('not-installed');
    expect(
      classifyKeychainError(
        'load',
        missing('MODULE_NOT_FOUND', "Cannot find module '../build/Release/keytar.node'"),
      ),
    ).toBe('native-part');
    expect(
      classifyKeychainError('load', new Error('libsecret-1.so.0: cannot open shared object file')),
    ).toBe('native-part');
    expect(classifyKeychainError('probe', new Error('no answer within 3 s'))).toBe('no-answer');
  });
});

describe('keychainRemedy', () => {
  it('names the package to install on Linux, then the npm command that brings keytar back', () => {
    expect(keychainRemedy('not-installed', 'linux')).toMatch(
      /run sudo apt install libsecret-1-dev .*, then npm install\.$/,
    );
    expect(keychainRemedy('native-part', 'linux')).toMatch(
      /run sudo apt install libsecret-1-dev .*, then npm rebuild keytar\.$/,
    );
    expect(keychainRemedy('no-answer', 'linux')).toMatch(/gnome-keyring/);
  });

  it('needs no system package on macOS and Windows, where keytar uses the OS keychain', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      expect(keychainRemedy('not-installed', platform)).toBe(
        'To keep secrets across restarts, run npm install.',
      );
      expect(keychainRemedy('native-part', platform)).toBe(
        'To keep secrets across restarts, run npm rebuild keytar.',
      );
      expect(keychainRemedy('no-answer', platform)).not.toMatch(/apt|npm/);
    }
  });

  it('says in one reason what happened, that the secret is kept for the session, and the fix', () => {
    expect(keychainFallbackReason('native-part', 'no keytar.node', 'darwin')).toBe(
      'The keychain module keytar did not load (no keytar.node): the secret is kept for this ' +
        'session only. To keep secrets across restarts, run npm rebuild keytar.',
    );
  });
});
