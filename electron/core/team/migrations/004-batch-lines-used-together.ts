import type { TeamMigration } from './types';

/**
 * 003's `team.use_approval`, with the lines of one batch used one at a time. Used side by side
 * (a batch arms several items at once), each saw the others' lines still unused, so none marked
 * the submission used: it read "approved" with every line used. The submission's row is locked
 * before a line is used; the last line to commit sees the others and marks it used.
 */
const migration: TeamMigration = {
  version: 4,
  name: 'batch-lines-used-together',
  async up(client) {
    await client.query(`
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
            PERFORM team.log(desk, 'approval.used', NULL,
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
