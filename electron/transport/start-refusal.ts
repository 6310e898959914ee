import { DataFolderInUseError } from '../core/data-folder/lock';
import { DataFolderError } from '../core/data-folder/unwritable';
import { StoreError } from '../core/store';

/**
 * The words of a refusal to start that the app explains itself (the data folder is held by
 * another process, cannot be written, or its database cannot be used): shown as they are, by the
 * browser host and the desktop shell alike. Null for any other failure.
 */
export function startRefusalMessage(error: unknown): string | null {
  const plain =
    error instanceof DataFolderInUseError ||
    error instanceof DataFolderError ||
    error instanceof StoreError;
  return plain ? error.message : null;
}
