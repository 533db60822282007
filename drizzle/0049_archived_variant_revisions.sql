-- Archiving a variant now archives its revisions at the variant's timestamp (server/versioning/
-- README.md, "Archive visibility"); variants archived before that get the same, so their log is
-- empty and an unarchive restores them. A revision archived on its own keeps its timestamp.
UPDATE "revisions" AS r SET "deleted_at" = v."deleted_at"
FROM "variants" AS v
WHERE r."variant_id" = v."id" AND v."deleted_at" IS NOT NULL AND r."deleted_at" IS NULL;
