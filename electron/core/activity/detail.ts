import { DOUBT_WORDS } from '../../../shared/draft/words';
import type { TargetDoubt } from '../../../shared/draft/types';
import { BATCH_ITEM_STATE_LABELS, type BatchItemState } from '../../../shared/batches/states';
import { groupDigits } from '../../../shared/figures';
import { payloadOf, recordedStrategyName, text } from './describe';
import {
  list,
  yesNo,
  table,
  ORDER_COLUMNS,
  bodyPositions,
  versionFacts,
  versionTables,
  deletedContent,
  errorKind,
  type Fact,
  type Payload,
  type Table,
} from './detail-parts';
import type { ActivityRow } from '../store/repositories/activity';

/**
 * An entry's details as the view shows them: facts (label, value) and tables (the positions
 * sent, the prediction, the orders), never raw JSON.
 */

/** What each recorded field name reads as in the view (the payload keeps the field's name). */
const CHANGED_FIELD: Record<string, string> = {
  name: 'name',
  baseUrl: 'service address',
  clientId: 'client id',
};

/** The target the prediction was made from, as the confirmation described it. */
const TARGET_STATE: Record<string, string> = {
  known: 'Known: the holdings fitted it',
  stale: 'Stale: the holdings did not fit it',
  unknown: 'Unknown: no executed version known to this app',
};

/** The target's state, and whether the service still knew the version when it was confirmed. */
function targetStateText(prediction: Payload | null | undefined): string {
  const state = text(prediction?.targetState);
  const shown = TARGET_STATE[state] ?? state;
  return prediction?.unknownToService === true
    ? `${shown}; the service no longer knew this version, so this app's copy was used`
    : shown;
}

/** Entries that record their doubts: the actions were uncertain where there was one. */
function doubtText(prediction: Payload | null | undefined): Fact[] {
  if (!prediction || !Array.isArray(prediction.doubts)) return [];
  const doubts = prediction.doubts.filter((d): d is TargetDoubt => d in DOUBT_WORDS);
  return [
    {
      label: 'Predicted actions',
      value:
        doubts.length === 0
          ? 'Predicted from the known target'
          : `Uncertain: ${doubts.map((d) => DOUBT_WORDS[d]).join('; ')}`,
    },
  ];
}

/** Whether the tick was given; entries that record whether it was needed say when it was not. */
/** The restrictions in force when it was armed (docs/restrictions.md); none before they existed. */
function restrictionFacts(r: Payload | null): Fact[] {
  if (!r) return [];
  const override = (r.override ?? null) as Payload | null;
  return [
    { label: 'Restrictions in force', value: `${text(r.inForce)} (list hash ${text(r.listHash)})` },
    ...(override
      ? [
          {
            label: 'Restrictions overridden',
            value: `${(Array.isArray(override.symbols) ? override.symbols : []).map(String).join(', ')}: ${text(override.note)}`,
          },
        ]
      : []),
  ];
}

function acknowledgedText(prediction: Payload | null | undefined): string {
  if (prediction?.acknowledgementNeeded === false) return 'Not needed';
  return yesNo(prediction?.acknowledged);
}

function failureFacts(error: unknown): Fact[] {
  const e = (error ?? {}) as Payload;
  return [
    { label: 'Error', value: text(e.message) },
    { label: 'Error kind', value: errorKind(e.kind) },
    { label: 'HTTP status', value: text(e.status) },
    { label: 'Service message', value: text(e.serviceMessage) },
  ];
}

export function detailOf(
  row: ActivityRow,
  /** The execution this entry refers to: an answer names the strategy through it. */
  referred: ActivityRow | null = null,
): { facts: Fact[]; tables: Table[] } {
  const p = payloadOf(row);
  const facts: Fact[] = [{ label: 'Profile', value: text(p.profileName) }];
  const tables: Table[] = [];
  const strategyName =
    recordedStrategyName(row, p) ?? (referred ? recordedStrategyName(referred) : null);
  if ('strategyName' in p || row.strategy_id)
    facts.push({
      label: 'Strategy',
      value: `${text(strategyName)}${row.strategy_id ? ` (${row.strategy_id})` : ''}`,
    });
  if (row.version_id) facts.push({ label: 'Version', value: row.version_id });
  switch (row.kind) {
    case 'profile-created':
    case 'profile-removed':
      facts.push(
        { label: 'Environment', value: text(p.environment) },
        { label: 'Service address', value: text(p.baseUrl) },
        { label: 'Client id', value: text(p.clientId) },
      );
      break;
    case 'profile-changed':
      for (const c of list(p.changes))
        facts.push({
          label: `Changed ${CHANGED_FIELD[text(c.field)] ?? text(c.field)}`,
          value: `${text(c.from)} → ${text(c.to)}`,
        });
      facts.push({ label: 'Client secret replaced', value: yesNo(p.secretReplaced) });
      if ('storedSecretToNewAddress' in p)
        facts.push({
          label: 'Stored secret allowed to the new address',
          value: yesNo(p.storedSecretToNewAddress),
        });
      break;
    case 'strategy-added':
      facts.push({ label: 'Liquidate only', value: yesNo(p.isLiquidateOnly) });
      tables.push(
        ...table(
          'Holdings',
          [
            ['symbol', 'Symbol'],
            ['quantity', 'Quantity'],
          ],
          list(p.holdings),
        ),
      );
      break;
    case 'model-revision-saved':
      facts.push(
        { label: 'Model', value: `${text(p.modelName)} (${text(p.modelId)})` },
        { label: 'Revision', value: `${text(p.revisionNumber)} (${text(p.revisionId)})` },
        { label: 'Note', value: text(p.note) },
        { label: 'SHA-256 of the canonical rows', value: text(p.hash) },
        { label: 'Total of weights', value: text(p.total) },
      );
      tables.push(
        ...table(
          'Rows',
          [
            ['symbol', 'Symbol'],
            ['weight', 'Weight %'],
          ],
          list(p.rows),
        ),
      );
      break;
    case 'model-assigned':
    case 'model-unassigned':
      facts.push({ label: 'Model', value: `${text(p.modelName)} (${text(p.modelId)})` });
      if (row.kind === 'model-assigned')
        facts.push(
          { label: 'Revision', value: `${text(p.revisionNumber)} (${text(p.revisionId)})` },
          { label: 'SHA-256 of the canonical rows', value: text(p.hash) },
          { label: 'Pinned to this revision', value: yesNo(p.pinned) },
        );
      if (typeof p.previousModelName === 'string')
        facts.push({ label: 'Followed before', value: text(p.previousModelName) });
      break;
    case 'batch-reviewed': {
      const acknowledged = list(p.acknowledged);
      facts.push(
        { label: 'Batch', value: text(p.batchId) },
        { label: 'Model', value: `${text(p.modelName)} (${text(p.modelId)})` },
        { label: 'Revision', value: `${text(p.revisionNumber)} (${text(p.revisionId)})` },
        { label: 'SHA-256 of the canonical rows', value: text(p.hash) },
        { label: 'Included', value: text(list(p.included).length) },
        { label: 'Excluded', value: text(list(p.excluded).length) },
        {
          label: 'Uncertain targets acknowledged',
          value:
            acknowledged.length === 0
              ? 'None needed'
              : acknowledged.map((a) => text(a.strategyName)).join(', '),
        },
        ...(acknowledged.length > 0 && typeof p.acknowledgedTogether === 'boolean'
          ? [
              {
                label: 'Acknowledged',
                value: p.acknowledgedTogether
                  ? `As one act: “I accept the uncertain predictions for these ${acknowledged.length} strategies”`
                  : 'One by one',
              },
            ]
          : []),
        { label: 'Stop at the first failure', value: yesNo(p.stopAtFirstFailure) },
        { label: 'Sent at once (concurrency)', value: text(p.concurrency) },
      );
      const strategy: [string, string][] = [
        ['strategyName', 'Strategy'],
        ['strategyId', 'Strategy id'],
      ];
      tables.push(
        ...table('Included', strategy, list(p.included)),
        ...table('Acknowledged as uncertain', strategy, acknowledged),
        ...table('Excluded', [...strategy, ['reason', 'Reason']], list(p.excluded)),
      );
      break;
    }
    case 'batch-ended': {
      const counts = (p.counts ?? {}) as Payload;
      const statuses = (p.versionStatuses ?? {}) as Payload;
      // How the versions ended is the entry's Outcome; the state is said with it ("4 sent: 1
      // FAILED, 3 COMPLETE"), never a bare "sent" beside a failure. Item states in the view's words.
      facts.push(
        { label: 'Batch', value: text(p.batchId) },
        { label: 'Batch state', value: text(p.words) },
        ...Object.keys(counts)
          .filter((k) => counts[k] !== 0)
          .map((k) => ({
            label: `Strategies ${BATCH_ITEM_STATE_LABELS[k as BatchItemState] ?? k}`,
            value: groupDigits(text(counts[k])),
          })),
        ...Object.keys(statuses).map((k) => ({
          label: `Versions ${k}`,
          value: groupDigits(text(statuses[k])),
        })),
      );
      break;
    }
    case 'attention-set-aside':
      facts.push(
        { label: 'Signal', value: text(p.signalLabel) },
        { label: 'Evidence', value: text(p.evidence) },
        {
          label: 'Set aside',
          value: p.action === 'snoozed' ? `Snoozed until ${text(p.until)}` : 'Acknowledged',
        },
        { label: 'Reason', value: text(p.reason) },
      );
      break;
    case 'version-imported':
      facts.push(...versionFacts(p.version as Payload | null));
      tables.push(...versionTables(p.version as Payload | null));
      break;
    case 'version-deleted': {
      facts.push({ label: 'Already gone at the service', value: yesNo(p.goneAtServiceAlready) });
      const content = deletedContent(p);
      facts.push(...content.facts);
      tables.push(...content.tables);
      break;
    }
    case 'execution-sent': {
      const prediction = (p.prediction ?? null) as Payload | null;
      facts.push(
        { label: 'Environment', value: text(p.environment) },
        { label: 'Service address', value: text(p.baseUrl) },
        {
          label: 'Draft',
          value: `${text(p.draftName)}${p.draftId ? ` (${text(p.draftId)})` : ''}`,
        },
        { label: 'Idempotency-Key', value: text(p.idempotencyKey) },
        { label: 'Confirmed in the dialog', value: yesNo(p.confirmed) },
        {
          label: 'Known target',
          value: targetStateText(prediction),
        },
        { label: 'Target version', value: text(prediction?.knownVersionId) },
        ...doubtText(prediction),
        { label: 'Stale or unknown target acknowledged', value: acknowledgedText(prediction) },
        ...restrictionFacts((p.restrictions ?? null) as Payload | null),
        { label: 'Body sent', value: text(p.requestBody) },
      );
      tables.push(
        ...table(
          'Positions sent',
          [
            ['symbol', 'Symbol'],
            ['weight', 'Weight'],
          ],
          bodyPositions(p.requestBody),
        ),
        ...table(
          'Prediction shown',
          [
            ['symbol', 'Symbol'],
            // On a target in doubt the old weight was only the last known one, and said so.
            ['oldWeight', uncertainIn(prediction) ? 'Last known weight' : 'Old weight'],
            ['weight', 'Weight'],
            ['action', 'Action'],
            ...(list(prediction?.positions).some((p) => 'shownAs' in p)
              ? ([['shownAs', 'Shown as']] as [string, string][])
              : []),
            ['heldQuantity', 'Held quantity'],
            ['sellsAll', 'Sells all'],
          ],
          list(prediction?.positions),
        ),
      );
      break;
    }
    case 'execution-answered':
      facts.push({ label: 'Attempt', value: text(p.attempt) });
      if (p.result === 'accepted')
        facts.push(
          { label: 'Result', value: 'Accepted' },
          { label: 'Version status', value: text(p.status) },
          { label: 'Location', value: text(p.location) },
          ...(p.locationNote === undefined
            ? []
            : [
                { label: 'Location given by the service', value: text(p.givenLocation) },
                { label: 'Why it was not followed', value: text(p.locationNote) },
              ]),
        );
      else
        facts.push(
          { label: 'Result', value: p.result === 'rejected' ? 'Refused' : 'Unclear' },
          ...failureFacts(p.error),
        );
      break;
    case 'execution-retried':
      facts.push(
        { label: 'Attempt', value: text(p.attempt) },
        { label: 'Idempotency-Key', value: text(p.idempotencyKey) },
        { label: 'Previous error', value: text(p.previousError) },
      );
      break;
    case 'execution-dismissed':
      facts.push(
        { label: 'Attempts', value: text(p.attempts) },
        { label: 'Last error', value: text(p.lastError) },
      );
      break;
    case 'version-ended': {
      const counts = (p.orderCounts ?? {}) as Payload;
      const prediction = (p.prediction ?? null) as Payload | null;
      facts.push(
        { label: 'Final status', value: text(p.status) },
        { label: 'Executed at', value: text(p.executedAt) },
        { label: 'Filled value', value: groupDigits(text(p.filledValue)) },
        ...Object.keys(counts).map((s) => ({ label: `Orders ${s}`, value: text(counts[s]) })),
        {
          label: 'Compared with the prediction',
          value: !prediction
            ? 'No prediction (not executed from this app)'
            : prediction.matched === true
              ? 'The service’s positions matched the prediction'
              : prediction.uncertain === true
                ? 'The service’s target differed from the last known one, as the confirmation warned (the target was uncertain)'
                : 'The service’s positions differed from the prediction',
        },
      );
      tables.push(
        ...table('Orders', ORDER_COLUMNS, list(p.orders)),
        ...table(
          'Differences from the prediction',
          [
            ['symbol', 'Symbol'],
            ['predicted', 'Predicted'],
            ['service', 'Service'],
          ],
          list(prediction?.differences).map((d) => ({
            symbol: d.symbol,
            predicted: side(d.predicted),
            service: side(d.service),
          })),
        ),
      );
      break;
    }
  }
  return { facts, tables };
}

/** The prediction was made on a target in doubt (entries recording doubts, or an unknown target). */
function uncertainIn(prediction: Payload | null | undefined): boolean {
  if (Array.isArray(prediction?.doubts)) return prediction.doubts.length > 0;
  return prediction?.targetState === 'unknown' || prediction?.targetState === 'stale';
}

function side(value: unknown): string {
  if (value === null || typeof value !== 'object') return 'not named';
  const v = value as Payload;
  return `${text(v.action)} (old weight ${text(v.oldWeight)}${'weight' in v ? `, weight ${text(v.weight)}` : ''})`;
}
