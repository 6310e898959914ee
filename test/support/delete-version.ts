import type { DeskHandlers } from '../../shared/contract';
import type { DeletePreview } from '../../shared/versions/unexecuted';

type VersionRef = { profileId: string; strategyId: string; versionId: string };

/**
 * Deletes an unexecuted version as the app does: read and shown first (`prepareDelete`), then
 * deleted with the key naming what was shown. A version found gone is removed from the history
 * the same way. Any other state (unreadable, executed) is a failure of the test's setup.
 */
export async function deleteShown(
  desk: Pick<DeskHandlers, 'versions'>,
  ref: VersionRef,
): Promise<DeletePreview> {
  const preview = await desk.versions.prepareDelete(ref);
  if (preview.state !== 'read' && preview.state !== 'gone')
    throw new Error(
      `Version ${ref.versionId} could not be shown before deleting: ${preview.state}`,
    );
  await desk.versions.delete({ ...ref, confirmation: { key: preview.confirmationKey } });
  return preview;
}
