import type { DeskApi, DeskEventOf } from '../../../shared/contract';
import type { SubmissionView } from '../../../shared/team/contract';
import { systemNotify, type Notify } from '../lib/notify';

export interface Notice {
  title: string;
  body: string;
}

/**
 * The words a submitter's desk tells of a decision on their submission (a draft's or a batch's),
 * or null when there is nothing for `me` to hear: not my submission, not decided yet (or already
 * used), or decided by me (the team store refuses that anyway).
 */
export function decisionNotice(submission: SubmissionView, me: string): Notice | null {
  if (submission.submittedBy !== me) return null;
  if (submission.state !== 'approved' && submission.state !== 'rejected') return null;
  const by = submission.decidedBy;
  if (by === null || by === me) return null;
  const approved = submission.state === 'approved';
  const note = submission.note ? `: “${submission.note}”` : ', without a note';
  return {
    title: `${approved ? 'Approved' : 'Rejected'}: ${submission.title}`,
    body: approved
      ? `${by} approved your submission${note}. It can be executed as submitted, once.`
      : `${by} rejected your submission${note}. Nothing of it will be sent.`,
  };
}

/**
 * Tells the submitter's desk, by a desktop notification, of a decision another member made on
 * their submission: a `team-changed` notice names the submission, the team store says what it is
 * now. Each decision is told once, however many notices name it (its use announces it again).
 */
export class DecisionNotices {
  private readonly told = new Set<string>();

  constructor(
    private readonly api: DeskApi,
    private readonly notify: Notify = systemNotify,
  ) {}

  async apply(event: DeskEventOf<'team-changed'>): Promise<void> {
    const id = event.key;
    if (event.topic !== 'submission' || id === null || this.told.has(id)) return;
    const { profileId } = event;
    const { team } = await this.api.team.get({ profileId });
    if (!team) return;
    const submission = await this.api.team.submission({ profileId, submissionId: id });
    // Another notice of the same submission may have told it while this one read.
    if (!submission || this.told.has(id)) return;
    const notice = decisionNotice(submission, team.member);
    if (!notice) return;
    this.told.add(id);
    this.notify(notice.title, notice.body);
  }
}

/**
 * Follows a submission made on this desk until another member decides it: `told` gets the same
 * words as the notification, so the status left under "Submit for approval" does not go on
 * saying it waits. Returns the unsubscribe.
 */
export function followSubmission(
  api: DeskApi,
  profileId: string,
  submissionId: string,
  told: (words: string) => void,
): () => void {
  return api.events.on('team-changed', (event) => {
    if (event.profileId !== profileId || event.topic !== 'submission') return;
    if (event.key !== submissionId) return;
    void api.team.submission({ profileId, submissionId }).then(
      (submission) => {
        const notice = submission && decisionNotice(submission, submission.submittedBy);
        if (notice) told(`${notice.title}. ${notice.body}`);
      },
      // The team store unreachable: the next notice reads again; the Team screen says why.
      () => undefined,
    );
  });
}
