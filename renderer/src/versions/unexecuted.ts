import type { DeletePreview, DraftComparison } from '../../../shared/versions/unexecuted';
import type { UnexecutedVersionKnown } from '../../../shared/views';
import { formatDateTime } from '../lib/format';

/**
 * The words of the unexecuted-version screens (the notice, the dialog that shows a version before
 * deleting it), apart from the components so they can be tested alone.
 */

/** A version named short, as the confirmation names it: "a1c3e5f7…". */
export const shortVersion = (id: string) => `${id.slice(0, 8)}…`;

/** "An unexecuted version scheduled for … (a1c3e5f7…) is in the way". */
export function inTheWayText(v: UnexecutedVersionKnown): string {
  const id = shortVersion(v.versionId);
  if (v.readAt === null)
    return `An unexecuted version (${id}, named by the service, not read yet) is in the way`;
  if (v.scheduledFor === null) return `An unexecuted version (${id}, not scheduled) is in the way`;
  return `An unexecuted version scheduled for ${formatDateTime(v.scheduledFor)} (${id}) is in the way`;
}

/** The second, explicit confirmation: it names the version (and its schedule when read). */
export function deleteLabel(preview: DeletePreview, then: 'execute' | null): string {
  const id = shortVersion(preview.versionId);
  const after = then === 'execute' ? ', and execute this draft' : '';
  switch (preview.state) {
    case 'read':
      return preview.content.scheduledFor === null
        ? `Delete version ${id} (not scheduled)${after}`
        : `Delete version ${id}, scheduled for ${formatDateTime(preview.content.scheduledFor)}${after}`;
    case 'unreadable':
      return `Delete version ${id} unseen${after}`;
    case 'gone':
      return `Remove version ${id} from this app`;
    case 'executed':
      return '';
  }
}

export const DIFFERENCE_WORDS = {
  'only-version': 'only in the version',
  'only-draft': 'only in the draft',
  'weights-differ': 'weights differ',
  same: 'same',
} as const;

const names = (symbols: string[]) => symbols.join(', ');

/** One sentence of what the version would do that the draft would not, and the reverse. */
export function comparisonSummary(c: DraftComparison): string {
  const of = (d: keyof typeof DIFFERENCE_WORDS) =>
    c.rows.filter((r) => r.difference === d).map((r) => r.symbol);
  const onlyVersion = of('only-version');
  const onlyDraft = of('only-draft');
  const differ = of('weights-differ');
  const same = of('same');
  const parts: string[] = [];
  if (onlyVersion.length)
    parts.push(`the version targets ${names(onlyVersion)}, which the draft does not`);
  if (onlyDraft.length)
    parts.push(`the draft targets ${names(onlyDraft)}, which the version does not`);
  if (differ.length) parts.push(`they give ${names(differ)} different weights`);
  if (parts.length === 0) return 'The version and the draft target the same weights.';
  const text = parts.join('; ');
  const rest = same.length
    ? `; ${same.length} other symbol${same.length === 1 ? '' : 's'} the same`
    : '';
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${rest}.`;
}
