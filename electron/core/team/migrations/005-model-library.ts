import type { TeamMigration } from './types';

/**
 * The team's model library as the desks use it (docs/team.md): a model's name and description
 * saved on their own (a model may be made before its first revision), a revision saved only on
 * the one it was edited from (`based_on`: another desk's save in between refuses it, as the
 * desk's own library does), never twice the same weights in a row, with its note; an assignment
 * to the latest revision or pinned to one. The canonical text is checked for its shape, so a
 * member in `psql` cannot store rows no desk can read. Names and descriptions announce too.
 */
const migration: TeamMigration = {
  version: 5,
  name: 'model-library',
  async up(client) {
    await client.query(`
      ALTER TABLE team.models ADD COLUMN description text NOT NULL DEFAULT '';
      ALTER TABLE team.model_revisions ADD COLUMN note text NOT NULL DEFAULT '';
      ALTER TABLE team.model_revisions ADD CONSTRAINT canonical_rows
        CHECK (canonical ~ '^([^,\\n]+,[0-9.]+\\n)*$');
      ALTER TABLE team.assignments
        ADD COLUMN revision_id uuid REFERENCES team.model_revisions (id);
      DROP FUNCTION team.save_model_revision(uuid, text, text, text, text);
      DROP FUNCTION team.assign(text[], uuid, text);

      CREATE FUNCTION team.save_model(model uuid, name text, description text, desk text)
        RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        BEGIN
          PERFORM team.require_role('desk_model_admin', 'save a model');
          IF coalesce(btrim(name), '') = '' THEN
            RAISE EXCEPTION 'A model needs a name.' USING ERRCODE = 'DK007';
          END IF;
          INSERT INTO team.models (id, name, description, created_by, created_at)
            VALUES (model, name, coalesce(description, ''), session_user, clock_timestamp())
            ON CONFLICT (id) DO UPDATE
              SET name = EXCLUDED.name, description = EXCLUDED.description;
          PERFORM team.log(desk, 'model.named', NULL,
            '{"description":' || team.json_text(coalesce(description, '')) || ',"model":'
            || team.json_text(model::text) || ',"name":' || team.json_text(name) || '}');
        END
      $f$;

      CREATE FUNCTION team.save_model_revision(model uuid, based_on uuid, canonical text,
                                               note text, copied_from text, desk text)
        RETURNS uuid
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE made uuid; m team.models; latest team.model_revisions;
                h text := encode(sha256(convert_to(canonical, 'UTF8')), 'hex');
        BEGIN
          PERFORM team.require_role('desk_model_admin', 'save a model');
          -- One save of a model at a time: the second sees the first's revision as the latest.
          SELECT * INTO m FROM team.models WHERE id = model FOR UPDATE;
          IF NOT FOUND THEN
            RAISE EXCEPTION 'This model is not in the team''s library.' USING ERRCODE = 'DK008';
          END IF;
          SELECT * INTO latest FROM team.model_revisions r WHERE r.model_id = model
           ORDER BY r.revision DESC LIMIT 1;
          IF latest.id IS DISTINCT FROM based_on THEN
            RAISE EXCEPTION 'Revision % of “%” was saved since this editor opened (by %, on %). Nothing was saved: open the model again to see it.',
              latest.revision, m.name, latest.saved_by, latest.saved_from USING ERRCODE = 'DK006';
          END IF;
          IF latest.hash = h THEN
            RAISE EXCEPTION 'These rows target the same weights as revision % (the same hash): there is nothing new to save.',
              latest.revision USING ERRCODE = 'DK007';
          END IF;
          INSERT INTO team.model_revisions (model_id, revision, name, canonical, hash, note,
                                            copied_from, saved_by, saved_from, saved_at)
          VALUES (model, coalesce(latest.revision, 0) + 1, m.name, canonical, h,
                  coalesce(note, ''), copied_from, session_user, desk, clock_timestamp())
          RETURNING id INTO made;
          PERFORM team.log(desk, 'model.saved', NULL,
            '{"copiedFrom":' || team.json_text(copied_from) || ',"hash":' || team.json_text(h)
            || ',"model":' || team.json_text(model::text) || ',"name":' || team.json_text(m.name)
            || ',"note":' || team.json_text(coalesce(note, '')) || ',"revision":'
            || (coalesce(latest.revision, 0) + 1) || '}');
          RETURN made;
        END
      $f$;

      CREATE FUNCTION team.assign(strategies text[], model uuid, revision uuid, desk text)
        RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE s text;
        BEGIN
          PERFORM team.require_role('desk_model_admin', 'assign strategies to a model');
          IF model IS NOT NULL AND NOT EXISTS (
               SELECT 1 FROM team.model_revisions r
                WHERE r.model_id = model AND (assign.revision IS NULL OR r.id = assign.revision)) THEN
            RAISE EXCEPTION 'That model has no such revision saved: strategies follow a saved revision.'
              USING ERRCODE = 'DK008';
          END IF;
          FOREACH s IN ARRAY strategies LOOP
            IF model IS NULL THEN
              DELETE FROM team.assignments a WHERE a.strategy_id = s;
            ELSE
              INSERT INTO team.assignments (strategy_id, model_id, revision_id, assigned_by,
                                            assigned_at)
              VALUES (s, model, assign.revision, session_user, clock_timestamp())
                ON CONFLICT (strategy_id) DO UPDATE
                  SET model_id = EXCLUDED.model_id, revision_id = EXCLUDED.revision_id,
                      assigned_by = EXCLUDED.assigned_by, assigned_at = EXCLUDED.assigned_at;
            END IF;
            PERFORM team.log(desk, 'model.assigned', s,
              '{"model":' || team.json_text(model::text) || ',"revision":'
              || team.json_text(assign.revision::text) || '}');
          END LOOP;
        END
      $f$;

      CREATE TRIGGER models_announce AFTER INSERT OR UPDATE ON team.models
        FOR EACH ROW EXECUTE FUNCTION team.announce('model', 'id');

      REVOKE ALL ON FUNCTION team.save_model(uuid, text, text, text),
        team.save_model_revision(uuid, uuid, text, text, text, text),
        team.assign(text[], uuid, uuid, text) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION team.save_model(uuid, text, text, text),
        team.save_model_revision(uuid, uuid, text, text, text, text),
        team.assign(text[], uuid, uuid, text) TO desk_member;
    `);
  },
};

export default migration;
