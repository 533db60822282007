CREATE TABLE "improve_failure_modes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"triage_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"count" integer NOT NULL,
	"examples" jsonb NOT NULL,
	"signature" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "improve_triages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"created_by_id" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"method" text NOT NULL,
	"method_note" text,
	"evidence" jsonb NOT NULL,
	"model" text,
	"max_examples_per_mode" integer NOT NULL,
	"budget_usd" double precision,
	"items" jsonb,
	"partial" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"spend_usd" double precision DEFAULT 0 NOT NULL,
	"stop_reason" text,
	"note" text,
	"error" text,
	"lease_token" uuid,
	"lease_until" timestamp (3) with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "improve_failure_modes" ADD CONSTRAINT "improve_failure_modes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "improve_failure_modes" ADD CONSTRAINT "improve_failure_modes_triage_id_improve_triages_id_fk" FOREIGN KEY ("triage_id") REFERENCES "public"."improve_triages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "improve_triages" ADD CONSTRAINT "improve_triages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "improve_triages" ADD CONSTRAINT "improve_triages_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "improve_failure_modes_triage_idx" ON "improve_failure_modes" USING btree ("triage_id","position");--> statement-breakpoint
CREATE INDEX "improve_triages_project_idx" ON "improve_triages" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "improve_triages_open_idx" ON "improve_triages" USING btree ("lease_until") WHERE status in ('queued', 'running');