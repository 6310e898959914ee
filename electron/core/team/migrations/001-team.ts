import type { TeamMigration } from './types';

/**
 * The team store (docs/team.md): members and their roles, the approval policy, submissions and
 * their decisions, claims, the model library and the team's activity chain.
 *
 * Roles are enforced by PostgreSQL, not by the desk: members read every table, and write only
 * through the functions below (SECURITY DEFINER, owned by whoever ran `team init`), each of which
 * checks the role of `session_user` (the member's own login; `current_user` inside such a
 * function is its owner). The activity table takes INSERT from members and nothing else: no
 * UPDATE, DELETE or TRUNCATE for anyone, its chain computed by a trigger. Custom SQLSTATEs in
 * class DK name what was refused; `team/errors.ts` words them.
 */
const migration: TeamMigration = {
  version: 1,
  name: 'team',
  async up(client) {
    await client.query(`
      DO $$
      DECLARE r text;
      BEGIN
        -- Group roles are cluster-wide: created once, shared by every team database on the cluster.
        FOREACH r IN ARRAY ARRAY['desk_member', 'desk_drafter', 'desk_approver', 'desk_trader',
                                 'desk_model_admin'] LOOP
          IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = r) THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN', r);
          END IF;
        END LOOP;
      END $$;

      REVOKE ALL ON SCHEMA team FROM PUBLIC;
      -- Functions are executable by PUBLIC unless told otherwise: every one is granted by name.
      ALTER DEFAULT PRIVILEGES IN SCHEMA team REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
      GRANT USAGE ON SCHEMA team TO desk_member;

      CREATE TABLE team.settings (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        approval_policy text NOT NULL DEFAULT 'every'
          CHECK (approval_policy IN ('every', 'batches', 'none')),
        approval_ttl interval NOT NULL DEFAULT interval '24 hours'
          CHECK (approval_ttl > interval '0'),
        changed_by name NOT NULL DEFAULT session_user,
        changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      INSERT INTO team.settings DEFAULT VALUES;

      CREATE TABLE team.members (
        login name PRIMARY KEY,
        display_name text NOT NULL CHECK (display_name <> ''),
        added_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );

      -- The activity chain, as the desk's own log hashes it: sha256hex(previous + "\\n" + canonical),
      -- the canonical text JSON with sorted keys and no whitespace; the first entry links to 64 zeros.
      CREATE TABLE team.activity (
        seq bigint PRIMARY KEY,
        at text NOT NULL,
        member name NOT NULL,
        desk text NOT NULL CHECK (desk <> ''),
        kind text NOT NULL CHECK (kind ~ '^[a-z][a-z.-]*$'),
        strategy_id text,
        version_id text,
        payload text NOT NULL,
        previous_hash text NOT NULL,
        hash text NOT NULL
      );
      CREATE INDEX activity_at ON team.activity (at);
      CREATE INDEX activity_kind ON team.activity (kind, seq);
      CREATE INDEX activity_member ON team.activity (member, seq);
      CREATE INDEX activity_strategy ON team.activity (strategy_id, seq);

      CREATE FUNCTION team.json_text(value text) RETURNS text
        LANGUAGE sql IMMUTABLE AS $f$ SELECT COALESCE(to_json(value)::text, 'null') $f$;

      CREATE FUNCTION team.entry_canonical(e team.activity) RETURNS text
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT '{"at":' || team.json_text(e.at) || ',"desk":' || team.json_text(e.desk)
          || ',"kind":' || team.json_text(e.kind) || ',"member":' || team.json_text(e.member::text)
          || ',"payload":' || e.payload || ',"seq":' || e.seq
          || ',"strategyId":' || team.json_text(e.strategy_id)
          || ',"versionId":' || team.json_text(e.version_id) || '}'
      $f$;

      CREATE FUNCTION team.chain_entry() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE last record;
        BEGIN
          -- One writer at a time: the chain has one head.
          PERFORM pg_advisory_xact_lock(hashtext('team.activity'));
          SELECT a.seq, a.hash INTO last FROM team.activity a ORDER BY a.seq DESC LIMIT 1;
          NEW.seq := COALESCE(last.seq, 0) + 1;
          NEW.previous_hash := COALESCE(last.hash, repeat('0', 64));
          NEW.member := session_user;
          NEW.at := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
          IF jsonb_typeof(NEW.payload::jsonb) <> 'object' THEN
            RAISE EXCEPTION 'An activity payload is a JSON object.' USING ERRCODE = '22023';
          END IF;
          NEW.hash := encode(sha256(convert_to(
            NEW.previous_hash || E'\\n' || team.entry_canonical(NEW), 'UTF8')), 'hex');
          RETURN NEW;
        END
      $f$;
      CREATE TRIGGER activity_chain BEFORE INSERT ON team.activity
        FOR EACH ROW EXECUTE FUNCTION team.chain_entry();

      CREATE FUNCTION team.refuse_change() RETURNS trigger
        LANGUAGE plpgsql AS $f$
        BEGIN
          RAISE EXCEPTION '% is append-only: an entry is never changed or removed.', TG_TABLE_NAME
            USING ERRCODE = 'DK010';
        END
      $f$;
      CREATE TRIGGER activity_append_only BEFORE UPDATE OR DELETE ON team.activity
        FOR EACH ROW EXECUTE FUNCTION team.refuse_change();
      CREATE TRIGGER activity_no_truncate BEFORE TRUNCATE ON team.activity
        FOR EACH STATEMENT EXECUTE FUNCTION team.refuse_change();

      -- An entry written by a function below, its payload already canonical.
      CREATE FUNCTION team.log(desk text, kind text, strategy_id text, payload text) RETURNS void
        LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        INSERT INTO team.activity (seq, at, member, desk, kind, strategy_id, version_id, payload,
                                   previous_hash, hash)
        VALUES (0, '', session_user, desk, kind, strategy_id, NULL, payload, '', '')
      $f$;

      CREATE FUNCTION team.require_role(wanted text, words text) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        BEGIN
          IF NOT pg_has_role(session_user, wanted, 'MEMBER') THEN
            RAISE EXCEPTION '% cannot %: that needs the % role.', session_user, words,
              replace(substr(wanted, 6), '_', ' ') USING ERRCODE = '42501';
          END IF;
        END
      $f$;

      CREATE VIEW team.member_roles AS
        SELECT m.login, m.display_name, m.added_at,
               pg_has_role(m.login, 'desk_drafter', 'MEMBER') AS drafter,
               pg_has_role(m.login, 'desk_approver', 'MEMBER') AS approver,
               pg_has_role(m.login, 'desk_trader', 'MEMBER') AS trader,
               pg_has_role(m.login, 'desk_model_admin', 'MEMBER') AS model_admin
          FROM team.members m
         WHERE EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname = m.login);

      -- Submissions: the content approved is canonical text, hashed here, never a draft's id.
      CREATE TABLE team.submissions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind text NOT NULL CHECK (kind IN ('draft', 'batch')),
        subject text NOT NULL CHECK (subject <> ''),
        title text NOT NULL,
        content text NOT NULL,
        content_hash text NOT NULL,
        submitted_by name NOT NULL,
        submitted_from text NOT NULL,
        submitted_at timestamptz NOT NULL,
        state text NOT NULL CHECK (state IN ('submitted', 'approved', 'rejected', 'used')),
        decided_by name,
        decided_at timestamptz,
        note text,
        expires_at timestamptz,
        used_by name,
        used_at timestamptz,
        CHECK (decided_by IS DISTINCT FROM submitted_by)
      );
      CREATE INDEX submissions_hash ON team.submissions (content_hash);
      CREATE INDEX submissions_subject ON team.submissions (subject, submitted_at);
      CREATE INDEX submissions_open ON team.submissions (state, submitted_at);

      CREATE FUNCTION team.submit(kind text, subject text, title text, content text, desk text)
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
          PERFORM team.log(desk, 'approval.submitted', NULL,
            '{"kind":' || team.json_text(kind) || ',"subject":' || team.json_text(subject)
            || ',"submission":' || team.json_text(made::text) || ',"title":' || team.json_text(title)
            || '}');
          RETURN made;
        END
      $f$;

      CREATE FUNCTION team.decide(submission uuid, approve boolean, note text, desk text)
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
            NULL, '{"note":' || team.json_text(note) || ',"submission":'
            || team.json_text(submission::text) || '}');
        END
      $f$;

      -- At the one place every execution passes: the content about to be sent, hashed here, must
      -- match an approved, unexpired, unused approval; it is used by this call.
      CREATE FUNCTION team.use_approval(subject text, content text, desk text) RETURNS uuid
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE wanted text := encode(sha256(convert_to(content, 'UTF8')), 'hex');
                match team.submissions;
        BEGIN
          PERFORM team.require_role('desk_trader', 'execute');
          SELECT * INTO match FROM team.submissions s
           WHERE s.content_hash = wanted AND s.subject = use_approval.subject
             AND s.state = 'approved' AND s.expires_at > clock_timestamp()
           ORDER BY s.decided_at LIMIT 1 FOR UPDATE;
          IF NOT FOUND THEN
            IF EXISTS (SELECT FROM team.submissions s WHERE s.subject = use_approval.subject
                          AND s.state IN ('approved', 'used')) THEN
              RAISE EXCEPTION 'The approval of % no longer matches what would be sent: it changed after approval, expired or was used. Submit it again.',
                use_approval.subject USING ERRCODE = 'DK002';
            END IF;
            RAISE EXCEPTION '% needs an approval by another member before it is sent.',
              use_approval.subject USING ERRCODE = 'DK001';
          END IF;
          UPDATE team.submissions SET state = 'used', used_by = session_user,
                 used_at = clock_timestamp() WHERE id = match.id;
          PERFORM team.log(desk, 'approval.used', NULL,
            '{"submission":' || team.json_text(match.id::text) || '}');
          RETURN match.id;
        END
      $f$;

      -- One execution of a strategy in flight across the team.
      CREATE TABLE team.claims (
        strategy_id text PRIMARY KEY,
        idempotency_key text NOT NULL,
        desk text NOT NULL,
        member name NOT NULL,
        taken_at timestamptz NOT NULL
      );

      CREATE FUNCTION team.take_claim(strategy text, idempotency_key text, desk text)
        RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE held team.claims;
        BEGIN
          PERFORM team.require_role('desk_trader', 'execute');
          INSERT INTO team.claims VALUES (strategy, idempotency_key, desk, session_user,
                                          clock_timestamp())
            ON CONFLICT (strategy_id) DO NOTHING;
          IF NOT FOUND THEN
            SELECT * INTO held FROM team.claims c WHERE c.strategy_id = strategy;
            -- The same execution taken again (a restart before its answer): still this desk's.
            IF held.idempotency_key = take_claim.idempotency_key AND held.desk = take_claim.desk THEN
              RETURN;
            END IF;
            RAISE EXCEPTION 'Strategy % has an execution in flight from % on desk % since %.',
              strategy, held.member, held.desk, held.taken_at USING ERRCODE = 'DK004';
          END IF;
          PERFORM team.log(desk, 'claim.taken', strategy,
            '{"idempotencyKey":' || team.json_text(idempotency_key) || '}');
        END
      $f$;

      -- Released when the execution settles, or by a member once the desk read the service and
      -- recorded what it found ("finding", in words, in the log).
      CREATE FUNCTION team.release_claim(strategy text, idempotency_key text, desk text,
                                         finding text)
        RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE held team.claims;
        BEGIN
          PERFORM team.require_role('desk_trader', 'release a claim');
          IF coalesce(finding, '') = '' THEN
            RAISE EXCEPTION 'A claim is released only with what the service was found to hold.'
              USING ERRCODE = '22023';
          END IF;
          DELETE FROM team.claims c
           WHERE c.strategy_id = strategy AND c.idempotency_key = release_claim.idempotency_key
          RETURNING * INTO held;
          IF NOT FOUND THEN RETURN; END IF;
          PERFORM team.log(desk, 'claim.released', strategy,
            '{"found":' || team.json_text(finding) || ',"heldBy":' || team.json_text(held.member::text)
            || ',"heldOn":' || team.json_text(held.desk) || ',"idempotencyKey":'
            || team.json_text(idempotency_key) || '}');
        END
      $f$;

      -- The model library: revisions immutable, hashed here over the canonical text the desk hashes.
      CREATE TABLE team.models (
        id uuid PRIMARY KEY,
        name text NOT NULL CHECK (name <> ''),
        created_by name NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE team.model_revisions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        model_id uuid NOT NULL REFERENCES team.models (id),
        revision integer NOT NULL CHECK (revision > 0),
        name text NOT NULL,
        canonical text NOT NULL,
        hash text NOT NULL,
        copied_from text,
        saved_by name NOT NULL,
        saved_from text NOT NULL,
        saved_at timestamptz NOT NULL,
        UNIQUE (model_id, revision)
      );
      CREATE TRIGGER revisions_immutable BEFORE UPDATE OR DELETE ON team.model_revisions
        FOR EACH ROW EXECUTE FUNCTION team.refuse_change();
      CREATE TABLE team.assignments (
        strategy_id text PRIMARY KEY,
        model_id uuid NOT NULL REFERENCES team.models (id),
        assigned_by name NOT NULL,
        assigned_at timestamptz NOT NULL
      );

      CREATE FUNCTION team.save_model_revision(model uuid, name text, canonical text,
                                               copied_from text, desk text)
        RETURNS uuid
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE made uuid; number integer; h text := encode(sha256(convert_to(canonical, 'UTF8')), 'hex');
        BEGIN
          PERFORM team.require_role('desk_model_admin', 'save a model');
          INSERT INTO team.models VALUES (model, name, session_user, clock_timestamp())
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name;
          SELECT coalesce(max(r.revision), 0) + 1 INTO number FROM team.model_revisions r
           WHERE r.model_id = model;
          INSERT INTO team.model_revisions (model_id, revision, name, canonical, hash, copied_from,
                                            saved_by, saved_from, saved_at)
          VALUES (model, number, name, canonical, h, copied_from, session_user, desk,
                  clock_timestamp())
          RETURNING id INTO made;
          PERFORM team.log(desk, 'model.saved', NULL,
            '{"copiedFrom":' || team.json_text(copied_from) || ',"hash":' || team.json_text(h)
            || ',"model":' || team.json_text(model::text) || ',"revision":' || number || '}');
          RETURN made;
        END
      $f$;

      CREATE FUNCTION team.assign(strategies text[], model uuid, desk text) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE s text;
        BEGIN
          PERFORM team.require_role('desk_model_admin', 'assign strategies to a model');
          FOREACH s IN ARRAY strategies LOOP
            IF model IS NULL THEN
              DELETE FROM team.assignments a WHERE a.strategy_id = s;
            ELSE
              INSERT INTO team.assignments VALUES (s, model, session_user, clock_timestamp())
                ON CONFLICT (strategy_id) DO UPDATE
                  SET model_id = EXCLUDED.model_id, assigned_by = EXCLUDED.assigned_by,
                      assigned_at = EXCLUDED.assigned_at;
            END IF;
            PERFORM team.log(desk, 'model.assigned', s,
              '{"model":' || team.json_text(model::text) || '}');
          END LOOP;
        END
      $f$;

      CREATE FUNCTION team.set_policy(policy text, ttl interval, desk text) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        BEGIN
          UPDATE team.settings SET approval_policy = policy, approval_ttl = ttl,
                 changed_by = session_user, changed_at = clock_timestamp();
          PERFORM team.log(desk, 'team.policy', NULL,
            '{"policy":' || team.json_text(policy) || ',"ttlSeconds":'
            || extract(epoch FROM ttl)::bigint || '}');
        END
      $f$;

      -- Across desks within a second: every change a desk shows is announced, no polling.
      CREATE FUNCTION team.announce() RETURNS trigger
        LANGUAGE plpgsql AS $f$
        BEGIN
          PERFORM pg_notify('desk_team', json_build_object('table', TG_TABLE_NAME,
            'topic', TG_ARGV[0], 'key', to_jsonb(NEW) ->> TG_ARGV[1])::text);
          RETURN NULL;
        END
      $f$;
      CREATE FUNCTION team.announce_statement() RETURNS trigger
        LANGUAGE plpgsql AS $f$
        BEGIN
          PERFORM pg_notify('desk_team', json_build_object('table', TG_TABLE_NAME, 'topic', 'assignment')::text);
          RETURN NULL;
        END
      $f$;
      CREATE TRIGGER submissions_announce AFTER INSERT OR UPDATE ON team.submissions
        FOR EACH ROW EXECUTE FUNCTION team.announce('submission', 'id');
      CREATE TRIGGER revisions_announce AFTER INSERT ON team.model_revisions
        FOR EACH ROW EXECUTE FUNCTION team.announce('model', 'model_id');
      CREATE TRIGGER assignments_announce AFTER INSERT OR UPDATE OR DELETE ON team.assignments
        FOR EACH STATEMENT EXECUTE FUNCTION team.announce_statement();
      CREATE TRIGGER activity_announce AFTER INSERT ON team.activity
        FOR EACH ROW EXECUTE FUNCTION team.announce('entry', 'seq');

      -- Members read everything and write only through the functions; the log takes INSERT.
      REVOKE ALL ON ALL TABLES IN SCHEMA team FROM PUBLIC;
      REVOKE ALL ON ALL FUNCTIONS IN SCHEMA team FROM PUBLIC;
      GRANT SELECT ON ALL TABLES IN SCHEMA team TO desk_member;
      GRANT INSERT (desk, kind, strategy_id, version_id, payload) ON team.activity TO desk_member;
      GRANT EXECUTE ON FUNCTION team.submit(text, text, text, text, text),
        team.decide(uuid, boolean, text, text), team.use_approval(text, text, text),
        team.take_claim(text, text, text), team.release_claim(text, text, text, text),
        team.save_model_revision(uuid, text, text, text, text), team.assign(text[], uuid, text),
        team.json_text(text), team.entry_canonical(team.activity)
        TO desk_member;
    `);
  },
};

export default migration;
