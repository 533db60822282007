-- Queued roll-up sums no longer carry their project (the queue row has it). Sums queued in the
-- earlier form are dropped: the worker's slow path sums those rows again from their spans.
UPDATE "span_ingest" SET "rollup" = NULL WHERE "rollup" IS NOT NULL;
