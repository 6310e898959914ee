import type { TeamMigration } from './types';

/**
 * A batch review submitted for approval (docs/team.md): one submission names every included
 * strategy's content (its canonical request body and base, and whether its uncertain target was
 * acknowledged) as lines, and the review's acknowledgements. Each line is hashed here; a batch's
 * item at arm must hash to an unused line of an approved, unexpired batch for its strategy, and
 * uses that line once. The submission reads used once every line is. Deciding one is 001's
 * `team.decide`: the submitter never approves their own, by the function and by the table.
 */
const migration: TeamMigration = {
  version: 3,
  name: 'batch-approvals',
  async up(client) {
    await client.query(`
      CREATE TABLE team.submission_lines (
        submission_id uuid NOT NULL REFERENCES team.submissions (id),
        position integer NOT NULL CHECK (position > 0),
        subject text NOT NULL CHECK (subject <> ''),
        content_hash text NOT NULL,
        used_by name,
        used_at timestamptz,
        PRIMARY KEY (submission_id, position),
        UNIQUE (submission_id, subject)
      );
      CREATE INDEX submission_lines_hash ON team.submission_lines (content_hash);
      CREATE INDEX submission_lines_subject ON team.submission_lines (subject);

      -- "lines": each included strategy's canonical content as a JSON string, so its exact text
      -- (the one hashed) survives the batch's own parsing.
      CREATE FUNCTION team.submit_batch(subject text, title text, content text, desk text)
        RETURNS uuid
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE made uuid; lines jsonb;
        BEGIN
          PERFORM team.require_role('desk_drafter', 'submit for approval');
          lines := content::jsonb -> 'lines';
          IF jsonb_typeof(lines) IS DISTINCT FROM 'array' OR jsonb_array_length(lines) = 0
             OR EXISTS (SELECT FROM jsonb_array_elements(lines) l WHERE jsonb_typeof(l) <> 'string')
          THEN
            RAISE EXCEPTION 'A batch submitted for approval names each included strategy''s content as a line (a JSON string in "lines").'
              USING ERRCODE = '22023';
          END IF;
          IF EXISTS (SELECT FROM jsonb_array_elements_text(lines) l(text)
                      WHERE jsonb_typeof(l.text::jsonb -> 'strategyId') IS DISTINCT FROM 'string') THEN
            RAISE EXCEPTION 'Each line of a batch submitted for approval names its strategy ("strategyId").'
              USING ERRCODE = '22023';
          END IF;
          INSERT INTO team.submissions (kind, subject, title, content, content_hash, submitted_by,
                                        submitted_from, submitted_at, state)
          VALUES ('batch', subject, title, content,
                  encode(sha256(convert_to(content, 'UTF8')), 'hex'), session_user, desk,
                  clock_timestamp(), 'submitted')
          RETURNING id INTO made;
          INSERT INTO team.submission_lines (submission_id, position, subject, content_hash)
            SELECT made, l.n, l.text::jsonb ->> 'strategyId',
                   encode(sha256(convert_to(l.text, 'UTF8')), 'hex')
              FROM jsonb_array_elements_text(lines) WITH ORDINALITY AS l(text, n);
          PERFORM team.log(desk, 'approval.submitted', NULL,
            '{"kind":"batch","lines":' || jsonb_array_length(lines) || ',"subject":'
            || team.json_text(subject) || ',"submission":' || team.json_text(made::text)
            || ',"title":' || team.json_text(title) || '}');
          RETURN made;
        END
      $f$;

      -- 001's, with a batch's line as the second way to match: a draft's approval first, as before.
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

      REVOKE ALL ON team.submission_lines FROM PUBLIC;
      GRANT SELECT ON team.submission_lines TO desk_member;
      REVOKE ALL ON FUNCTION team.submit_batch(text, text, text, text) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION team.submit_batch(text, text, text, text) TO desk_member;
    `);
  },
};

export default migration;
