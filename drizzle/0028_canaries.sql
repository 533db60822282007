CREATE TABLE "canaries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"environment_id" uuid NOT NULL,
	"environment_variant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"revision_key" text NOT NULL,
	"baseline_revision_id" uuid NOT NULL,
	"candidate_revision_id" uuid NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"weight" double precision NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"step_index" integer DEFAULT 0 NOT NULL,
	"step_interval_ms" integer,
	"next_step_at" timestamp (3) with time zone,
	"guards" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reason" text,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"created_by_id" uuid
);
--> statement-breakpoint
ALTER TABLE "canaries" ADD CONSTRAINT "canaries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "canaries" ADD CONSTRAINT "canaries_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "canaries_running_key_idx" ON "canaries" USING btree ("environment_variant_id","key") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "canaries_due_idx" ON "canaries" USING btree ("next_step_at") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "canaries_project_idx" ON "canaries" USING btree ("project_id","environment_id","id");