import type { TeamMigration } from './types';

/**
 * A draft's submission, decision and use name its strategy in the team's log (the entry's
 * strategy), as a batch line's use already did: the Team log showed "—" under Strategy for them,
 * and filtering the log by a strategy left its approvals out. A batch's submission and decision
 * name none (a batch is many strategies; its lines' uses name each). The functions are 001's
 * `team.submit` and `team.decide` and 004's `team.use_approval`, only their entries changed.
 */
const migration: TeamMigration = {
  version: 7,
  name: 'approvals-name-the-strategy',
  async up(client) {
    await client.query(`
      CREATE OR REPLACE FUNCTION team.submit(kind text, subject text, title text, content text, desk text)
        RETURNS uuid
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE made uuid;
        BEGIN
          PERFORM team.require_role('desk_drafter', 'submit for approval');
          PERFORM content::jsonb;
          INSERT INTO team.submissions (kind, subject, title, content, content_hash, submitted_by,
                                        submitted_from, submitted_at, state)
          VALUES (kind, subject, title, content, encode(sha256(convert_to(content, 'UTF8')), 'hex'),
                  session_user, desk, clock_timestamp(), 'submitted')
          RETURNING id INTO made;
          PERFORM team.log(desk, 'approval.submitted',
            CASE WHEN kind = 'draft' THEN subject END,
            '{"kind":' || team.json_text(kind) || ',"subject":' || team.json_text(subject)
            || ',"submission":' || team.json_text(made::text) || ',"title":' || team.json_text(title)
            || '}');
          RETURN made;
        END
      $f$;

      CREATE OR REPLACE FUNCTION team.decide(submission uuid, approve boolean, note text, desk text)
        RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE s team.submissions;
        BEGIN
          PERFORM team.require_role('desk_approver', 'approve or reject');
          SELECT * INTO s FROM team.submissions WHERE id = submission FOR UPDATE;
          IF NOT FOUND THEN
            RAISE EXCEPTION 'Submission % does not exist.', submission USING ERRCODE = 'DK005';
          END IF;
          IF s.submitted_by = session_user THEN
            RAISE EXCEPTION '% submitted "%" and cannot approve or reject it: another approver must.',
              session_user, s.title USING ERRCODE = 'DK003';
          END IF;
          IF s.state <> 'submitted' THEN
            RAISE EXCEPTION '"%" was already %.', s.title, s.state USING ERRCODE = 'DK005';
          END IF;
          UPDATE team.submissions
             SET state = CASE WHEN approve THEN 'approved' ELSE 'rejected' END,
                 decided_by = session_user, decided_at = clock_timestamp(), note = decide.note,
                 expires_at = CASE WHEN approve
                   THEN clock_timestamp() + (SELECT approval_ttl FROM team.settings) END
           WHERE id = submission;
          PERFORM team.log(desk, CASE WHEN approve THEN 'approval.approved' ELSE 'approval.rejected' END,
            CASE WHEN s.kind = 'draft' THEN s.subject END, '{"note":' || team.json_text(note) || ',"submission":'
            || team.json_text(submission::text) || '}');
        END
      $f$;

      CREATE OR REPLACE FUNCTION team.use_approval(subject text, content text, desk text)
        RETURNS uuid
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE wanted text := encode(sha256(convert_to(content, 'UTF8')), 'hex');
                match team.submissions;
                hit team.submission_lines;
        BEGIN
          PERFORM team.require_role('desk_trader', 'execute');
          SELECT * INTO match FROM team.submissions s
           WHERE s.kind = 'draft' AND s.content_hash = wanted AND s.subject = use_approval.subject
             AND s.state = 'approved' AND s.expires_at > clock_timestamp()
           ORDER BY s.decided_at LIMIT 1 FOR UPDATE;
          IF FOUND THEN
            UPDATE team.submissions SET state = 'used', used_by = session_user,
                   used_at = clock_timestamp() WHERE id = match.id;
            PERFORM team.log(desk, 'approval.used', use_approval.subject,
              '{"submission":' || team.json_text(match.id::text) || '}');
            RETURN match.id;
          END IF;
          -- A line of an approved batch; a second arm of the same line waits here and then finds
          -- it used (the row is checked again once its lock is had).
          SELECT l.* INTO hit FROM team.submission_lines l
            JOIN team.submissions s ON s.id = l.submission_id
           WHERE l.content_hash = wanted AND l.subject = use_approval.subject AND l.used_at IS NULL
             AND s.state = 'approved' AND s.expires_at > clock_timestamp()
           ORDER BY s.decided_at, l.submission_id LIMIT 1 FOR UPDATE OF l;
          IF FOUND THEN
            -- A batch arms several items side by side: its lines are used one at a time past
            -- here, so the last to commit sees every other line used and marks the submission.
            PERFORM FROM team.submissions s WHERE s.id = hit.submission_id FOR UPDATE;
            UPDATE team.submission_lines l SET used_by = session_user, used_at = clock_timestamp()
             WHERE l.submission_id = hit.submission_id AND l.position = hit.position;
            UPDATE team.submissions s SET state = 'used', used_by = session_user,
                   used_at = clock_timestamp()
             WHERE s.id = hit.submission_id AND NOT EXISTS (
               SELECT FROM team.submission_lines l
                WHERE l.submission_id = hit.submission_id AND l.used_at IS NULL);
            PERFORM team.log(desk, 'approval.used', use_approval.subject,
              '{"line":' || hit.position || ',"submission":'
              || team.json_text(hit.submission_id::text) || '}');
            RETURN hit.submission_id;
          END IF;
          IF EXISTS (SELECT FROM team.submissions s WHERE s.subject = use_approval.subject
                        AND s.state IN ('approved', 'used'))
             OR EXISTS (SELECT FROM team.submission_lines l
                          JOIN team.submissions s ON s.id = l.submission_id
                         WHERE l.subject = use_approval.subject
                           AND s.state IN ('approved', 'used')) THEN
            RAISE EXCEPTION 'The approval of % no longer matches what would be sent: it changed after approval, expired or was used. Submit it again.',
              use_approval.subject USING ERRCODE = 'DK002';
          END IF;
          RAISE EXCEPTION '% needs an approval by another member before it is sent.',
            use_approval.subject USING ERRCODE = 'DK001';
        END
      $f$;
    `);
  },
};

export default migration;
