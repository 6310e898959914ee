import type { DeskEvent } from '../../../shared/contract';
import type { Connections } from './connections';
import type { ExecutionJournal } from '../execute';
import type { SecretStore } from '../secrets';
import type { Store } from '../store';
import type { VersionTracker } from '../tracker';

/** What every area of the desk works with. */
export interface DeskContext {
  store: Store;
  secrets: SecretStore;
  connections: Connections;
  tracker: VersionTracker;
  executions: ExecutionJournal;
  emit(event: DeskEvent): void;
  now(): string;
}

export interface EmbeddedSandbox {
  baseUrl: string;
  close(): Promise<void>;
}
