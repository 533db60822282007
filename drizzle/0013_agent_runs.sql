CREATE TABLE "agent_run_events" (
	"run_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"last_seq" bigint NOT NULL,
	"events" jsonb NOT NULL,
	CONSTRAINT "agent_run_events_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "agent_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"agent_id" uuid,
	"agent" jsonb NOT NULL,
	"status" text NOT NULL,
	"format" text NOT NULL,
	"message_id" text NOT NULL,
	"background" boolean DEFAULT false NOT NULL,
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"stop_reason" text,
	"usage" jsonb,
	"error" text,
	"event_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"lease_owner" text,
	"lease_expires_at" timestamp (3) with time zone,
	"cancel_requested_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "agent_run_events" ADD CONSTRAINT "agent_run_events_run_id_agent_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_runs_session_idx" ON "agent_runs" USING btree ("project_id","session_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_runs_project_idx" ON "agent_runs" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_runs_running_idx" ON "agent_runs" USING btree ("status","lease_expires_at");