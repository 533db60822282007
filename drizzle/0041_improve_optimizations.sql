CREATE TABLE "improve_candidates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"optimization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"idx" integer NOT NULL,
	"strategy" text NOT NULL,
	"parent_id" uuid,
	"proposal" jsonb,
	"summary" text DEFAULT '' NOT NULL,
	"revision_id" uuid,
	"variant_id" uuid,
	"variant_slug" text,
	"version" integer,
	"train_run_id" uuid,
	"train_score" double precision,
	"train_cases" jsonb,
	"holdout_run_id" uuid,
	"holdout_score" double precision,
	"holdout_cases" jsonb,
	"optimizer_cost_usd" numeric DEFAULT '0' NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "improve_optimizations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"created_by_id" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"stop_reason" text,
	"base_kind" text NOT NULL,
	"base_artifact_id" uuid NOT NULL,
	"base_revision_id" uuid NOT NULL,
	"testset_revision_id" uuid NOT NULL,
	"evaluator_revision_ids" jsonb NOT NULL,
	"strategies" jsonb NOT NULL,
	"model" text,
	"sweep_models" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rounds" integer NOT NULL,
	"candidates_per_round" integer NOT NULL,
	"holdout_fraction" double precision NOT NULL,
	"seed" integer NOT NULL,
	"spend_cap_usd" numeric,
	"failure_mode_id" uuid,
	"split" jsonb NOT NULL,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"spend_usd" numeric DEFAULT '0' NOT NULL,
	"error" text,
	"lease_token" uuid,
	"lease_until" timestamp (3) with time zone,
	"next_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "improve_candidates" ADD CONSTRAINT "improve_candidates_optimization_id_improve_optimizations_id_fk" FOREIGN KEY ("optimization_id") REFERENCES "public"."improve_optimizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "improve_candidates" ADD CONSTRAINT "improve_candidates_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "improve_optimizations" ADD CONSTRAINT "improve_optimizations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "improve_optimizations" ADD CONSTRAINT "improve_optimizations_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "improve_candidates_slot_idx" ON "improve_candidates" USING btree ("optimization_id","round","idx");--> statement-breakpoint
CREATE INDEX "improve_optimizations_project_idx" ON "improve_optimizations" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "improve_optimizations_due_idx" ON "improve_optimizations" USING btree ("next_at") WHERE status in ('queued', 'running');