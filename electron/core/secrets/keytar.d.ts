// keytar is an optional dependency (docs/install.md): these are the calls the app makes, so the
// tree typechecks on a machine where npm left keytar out. The loader checks them at runtime.
declare module 'keytar' {
  export function getPassword(service: string, account: string): Promise<string | null>;
  export function setPassword(service: string, account: string, password: string): Promise<void>;
  export function deletePassword(service: string, account: string): Promise<boolean>;
}
