-- An answer out of band (POST /api/sessions/interactions/{id}/respond) records when it claimed the
-- approval and the run id minted then for its continuation (server/agent-runs/permissions): a claim
-- whose process died before that run was recorded is taken up again after a lease. Null on rows
-- claimed before this migration and on rows never answered out of band.
ALTER TABLE "tool_approvals" ADD COLUMN "claimed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tool_approvals" ADD COLUMN "continuation_run_id" text;
