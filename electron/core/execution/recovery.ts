import { DeskError } from '../../../shared/views';
import { notFound, toDeskError } from '../errors';
import type { JournalEntry, JournalState, Store } from '../store';
import type { Execution, ExecutionOutcome } from './execute';
import { recordingJournal, type JournalPort } from './journal';

/**
 * Executions whose outcome nobody knows (execute.ts): the manager sends one again with its same
 * key, or dismisses it; at start-up, those a stop or a crash cut off are settled. Nothing is
 * ever sent again on its own: executing hours later at other prices is not what the manager
 * asked for.
 */
export class Recovery {
  private readonly journal: JournalPort;

  constructor(
    store: Store,
    private readonly execution: Pick<Execution, 'send' | 'announce' | 'releaseClaim'>,
  ) {
    this.journal = recordingJournal(store, toDeskError);
  }

  /**
   * Sends an unknown entry again, with its own key and body: armed already (journaled and on
   * disk), so the service replays its first answer if it had accepted.
   */
  async retry(entryId: string): Promise<ExecutionOutcome> {
    const entry = this.unknownEntry(entryId, 'sent again');
    return this.execution.send({ entry, followLater: false });
  }

  /** The manager leaves an unknown entry as it is. */
  dismiss(entryId: string): JournalEntry {
    this.unknownEntry(entryId, 'dismissed');
    const dismissed = this.journal.markDismissed(entryId);
    this.execution.releaseClaim(
      dismissed,
      'dismissed by the manager: left as the service holds it',
    );
    this.execution.announce(dismissed.profileId);
    return dismissed;
  }

  /**
   * At start-up, entries cut off by a stop or a crash: a sent one may or may not have reached the
   * service, so it becomes unknown. A pending one (armed) was not sent, so it is withdrawn, unless
   * the computer restarted since it was journaled (`computerRestarted`, boot.ts): the commit that
   * would have marked it sent may have been lost then, the request gone, so it is unknown too.
   * Nothing is sent here; the manager sees the unknown ones and chooses. A withdrawn one's team
   * claim is released; an unknown one keeps it until it is reconciled.
   */
  reconcileAtStartup(computerRestarted: boolean): JournalEntry[] {
    for (const entry of this.journal.listInFlight()) {
      if (entry.state === 'pending' && !computerRestarted) {
        this.journal.withdraw(
          entry.id,
          'The app stopped before sending this execution; nothing was sent.',
        );
        // Never sent: a desk of a team gives its claim back, so the strategy is free again.
        this.execution.releaseClaim(
          entry,
          'withdrawn at start-up: the app stopped before sending it; nothing was sent',
        );
      } else if (entry.state === 'pending') {
        this.journal.markUnknown(
          entry.id,
          'The computer stopped as this execution was about to be sent; it may or may not have left, and been accepted.',
        );
      } else if (entry.state === 'sent') {
        this.journal.markUnknown(
          entry.id,
          'The app stopped before the service answered; the execution may or may not have been accepted.',
        );
      }
    }
    return this.journal.listInFlight();
  }

  /** Only an execution whose outcome nobody knows may be sent again or dismissed: the refusal says why. */
  private unknownEntry(entryId: string, action: 'sent again' | 'dismissed'): JournalEntry {
    const entry = this.journal.get(entryId);
    if (!entry) throw notFound('This execution');
    if (entry.state !== 'unknown')
      throw new DeskError({
        kind: 'execution-blocked',
        message: `This execution ${JOURNAL_STATE_WORDS[entry.state]}: only one whose outcome is unknown can be ${action}.`,
        details: { state: entry.state },
      });
    return entry;
  }
}

/** What an execution's state says of it, in a refusal to retry or dismiss it. */
const JOURNAL_STATE_WORDS: Record<JournalState, string> = {
  pending: 'is about to be sent',
  sent: 'is being sent now',
  accepted: 'was accepted by the service',
  rejected: 'was refused by the service, or never sent',
  dismissed: 'was dismissed already',
  unknown: 'has an unknown outcome',
};
