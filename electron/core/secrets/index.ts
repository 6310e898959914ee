export { APP_ID, MemorySecretStore, type SecretStore } from './secret-store';
export { KeychainSecretStore, type KeytarApi } from './keychain';
export { openSecretStore, type OpenSecretStoreOptions } from './open';
export {
  classifyKeychainError,
  keychainFallbackReason,
  keychainRemedy,
  type KeychainProblem,
} from './remedy';
