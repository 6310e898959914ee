import { activityKindLabel } from '../../../shared/activity/kinds';
import { SENT_OUTCOMES, sentOutcomeWords, type SentOutcome } from '../../../shared/batches/states';
import { formatCount, groupDigits } from '../../../shared/figures';
import type { ActivityEntrySummary } from '../../../shared/activity/views';
import type { ActivityRow } from '../store/repositories/activity';

/**
 * How an entry reads: one line for the list, and the outcome of an execution. The payloads are
 * the ones record.ts and execution.ts write; a field missing from an edited file reads as "—".
 */

type Payload = Record<string, unknown>;

export function payloadOf(row: ActivityRow): Payload {
  try {
    const parsed: unknown = JSON.parse(row.payload);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Payload) : {};
  } catch {
    // A payload edited into something that is not JSON: the chain check names it.
    return {};
  }
}

export const text = (value: unknown): string =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : String(value);

const quoted = (value: unknown) => (typeof value === 'string' ? `“${value}”` : 'a strategy');
const modelNamed = (value: unknown) => (typeof value === 'string' ? `“${value}”` : 'a model');

function positionCount(requestBody: unknown): number | null {
  if (typeof requestBody !== 'string') return null;
  try {
    const body = JSON.parse(requestBody) as { data?: { positions?: unknown[] } };
    return Array.isArray(body.data?.positions) ? body.data.positions.length : null;
  } catch {
    return null;
  }
}

const plural = (n: number, one: string) => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`;

/** The failure of an answer, as a short phrase. */
function failureText(error: unknown): string {
  if (error === null || typeof error !== 'object') return text(error);
  const e = error as Payload;
  const status = typeof e.status === 'number' ? `${e.status} ` : '';
  return `${status}${text(e.message)}`;
}

/** One readable line: what was done, and to what. */
export function summaryLine(row: ActivityRow, p: Payload = payloadOf(row)): string {
  switch (row.kind) {
    case 'profile-created':
      return `Profile “${text(p.profileName)}” created for ${text(p.baseUrl)}`;
    case 'profile-changed': {
      const changes = Array.isArray(p.changes) ? (p.changes as Payload[]) : [];
      const named = changes.map((c) =>
        c.field === 'baseUrl'
          ? `address ${text(c.from)} → ${text(c.to)}`
          : c.field === 'clientId'
            ? `client id ${text(c.from)} → ${text(c.to)}`
            : `name “${text(c.from)}” → “${text(c.to)}”`,
      );
      if (p.secretReplaced === true) named.push('client secret replaced');
      if (p.storedSecretToNewAddress === true)
        named.push('stored client secret allowed to the new address');
      return `Profile changed: ${named.join('; ') || 'no visible change'}`;
    }
    case 'profile-removed':
      return `Profile “${text(p.profileName)}” removed (${text(p.baseUrl)})`;
    case 'strategy-added':
      return `Strategy ${quoted(p.strategyName)} added`;
    case 'strategy-removed':
      return `Strategy ${quoted(p.strategyName)} removed from the app`;
    case 'version-imported':
      return `Version ${text(row.version_id)} of ${quoted(p.strategyName)} imported`;
    case 'execution-sent': {
      const n = positionCount(p.requestBody);
      const draft = typeof p.draftName === 'string' ? ` from draft “${p.draftName}”` : '';
      const positions = n === null ? '' : ` (${plural(n, 'position')})`;
      return `Executed ${quoted(p.strategyName)}${draft}${positions}`;
    }
    case 'execution-answered':
      return p.result === 'accepted'
        ? `Service accepted the execution as version ${text(p.versionId)}`
        : p.result === 'rejected'
          ? `Service refused the execution: ${failureText(p.error)}`
          : `Outcome of the execution unclear: ${failureText(p.error)}`;
    case 'execution-retried':
      return `Unclear execution sent again with the same key (attempt ${text(p.attempt)})`;
    case 'execution-dismissed':
      return 'Unclear execution dismissed by the manager';
    case 'version-deleted':
      return p.shownBeforeDelete === 'unread-acknowledged'
        ? `Version ${text(row.version_id)} of ${quoted(p.strategyName)} deleted unseen (it could not be read)`
        : `Version ${text(row.version_id)} of ${quoted(p.strategyName)} deleted`;
    case 'version-ended':
      return `Version ${text(row.version_id)} ended: ${text(p.status)}`;
    case 'model-revision-saved':
      return `Model ${modelNamed(p.modelName)} saved as revision ${text(p.revisionNumber)}`;
    case 'model-assigned':
      return `${quoted(p.strategyName)} follows model ${modelNamed(p.modelName)} (revision ${text(p.revisionNumber)}${p.pinned === true ? ', pinned' : ''})`;
    case 'model-unassigned':
      return `${quoted(p.strategyName)} no longer follows model ${modelNamed(p.modelName)}`;
    case 'batch-reviewed': {
      const included = Array.isArray(p.included) ? p.included.length : 0;
      const excluded = Array.isArray(p.excluded) ? p.excluded.length : 0;
      return `Batch of model ${modelNamed(p.modelName)} revision ${text(p.revisionNumber)} reviewed and executed: ${plural(included, 'strategy')} included, ${excluded} excluded`.replace(
        /strategys/,
        'strategies',
      );
    }
    case 'batch-ended':
      return `Batch ended: ${text(p.words)}`;
    case 'attention-set-aside':
      return `${text(p.signalLabel)} of ${quoted(p.strategyName)} ${p.action === 'snoozed' ? 'snoozed' : 'acknowledged'}: ${text(p.reason)}`;
    default:
      return `An entry of a kind the app does not write (“${text(row.kind)}”): the file was edited.`;
  }
}

/** What came of an answer or an end, as the execution's outcome shows it. */
export function outcomeLine(row: ActivityRow, p: Payload = payloadOf(row)): string | null {
  switch (row.kind) {
    case 'execution-answered':
      return p.result === 'accepted'
        ? `Accepted as ${text(p.status).toLowerCase()}`
        : p.result === 'rejected'
          ? `Refused: ${failureText(p.error)}`
          : `Unclear: ${failureText(p.error)}`;
    case 'execution-retried':
      return `Sent again (attempt ${text(p.attempt)})`;
    case 'execution-dismissed':
      return 'Dismissed';
    // Whether this delete removed the version or found it gone shows only here and in its facts.
    case 'version-deleted':
      return p.goneAtServiceAlready === true
        ? 'Already gone at the service'
        : 'Deleted at the service';
    case 'version-ended': {
      const counts = (p.orderCounts ?? {}) as Record<string, unknown>;
      const filled = typeof counts.FILLED === 'number' ? counts.FILLED : 0;
      const prediction = (p.prediction ?? null) as Payload | null;
      const differs =
        prediction?.matched !== false
          ? ''
          : prediction.uncertain === true
            ? "; the service's target differed from the last known one, as warned"
            : '; the service differed from the prediction';
      return `${capitalized(text(p.status))}: ${plural(filled, 'order')} filled, ${groupDigits(text(p.filledValue))} filled value${differs}`;
    }
    case 'batch-ended':
      return batchOutcome(p);
    default:
      return null;
  }
}

/**
 * How a batch's items that went out ended, failures first ("1 FAILED, 3 COMPLETE"), from its end
 * entry's counts (refused, unknown) and version statuses; "Nothing sent" when none went out.
 */
function batchOutcome(p: Payload): string {
  const counts = (p.counts ?? {}) as Payload;
  const statuses = (p.versionStatuses ?? {}) as Payload;
  const outcomes: Partial<Record<SentOutcome, number>> = {};
  for (const outcome of SENT_OUTCOMES) {
    const n = outcome === 'refused' || outcome === 'unknown' ? counts[outcome] : statuses[outcome];
    if (typeof n === 'number' && n > 0) outcomes[outcome] = n;
  }
  return sentOutcomeWords(outcomes) || 'Nothing sent';
}

const capitalized = (s: string) => s.charAt(0) + s.slice(1).toLowerCase();

/**
 * A list line. An execution shows the latest outcome linked to it (its answer, then its end).
 */
/** The strategy's name as the entry recorded it, or null (an answer names it in its execution). */
export function recordedStrategyName(row: ActivityRow, p: Payload = payloadOf(row)): string | null {
  return typeof p.strategyName === 'string' ? p.strategyName : null;
}

export function summaryOf(
  row: ActivityRow,
  latestLinked: ActivityRow | null,
  /**
   * The execution an answer, retry, dismissal or end refers to (its name stands for theirs), or
   * how to read it when the entry names no strategy itself.
   */
  referred: ActivityRow | null | (() => ActivityRow | null) = null,
): ActivityEntrySummary {
  const p = payloadOf(row);
  const referredName = () => {
    const entry = typeof referred === 'function' ? referred() : referred;
    return entry ? recordedStrategyName(entry) : null;
  };
  // An edited file may hold any value of any type: the view shows it as text (an index as 0).
  const orNull = (value: unknown) => (value === null ? null : String(value));
  return {
    seq: row.seq,
    chainIndex: Number.isSafeInteger(row.chain_index) ? row.chain_index : 0,
    at: String(row.at),
    kind: String(row.kind),
    profileId: row.profile_id,
    profileName: text(p.profileName),
    strategyId: orNull(row.strategy_id),
    strategyName: recordedStrategyName(row, p) ?? referredName(),
    versionId: orNull(row.version_id),
    summary: summaryLine(row, p),
    outcome:
      row.kind === 'execution-sent'
        ? latestLinked
          ? outcomeLine(latestLinked)
          : 'Waiting for the answer'
        : outcomeLine(row, p),
  };
}

export const kindLabel = (row: ActivityRow) => activityKindLabel(row.kind);
