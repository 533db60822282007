ALTER TABLE "tool_approvals" ADD COLUMN "run_id" text;--> statement-breakpoint
ALTER TABLE "agent_run_events" ADD COLUMN "written_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_runs" ADD COLUMN "continues_run_id" text;