CREATE TABLE "evaluation_metrics" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"scenario_id" uuid,
	"timestamp" timestamp (3) with time zone,
	"interval" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"data" jsonb,
	"flags" jsonb,
	"tags" jsonb,
	"meta" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "evaluation_queues" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"name" text,
	"description" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"flags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tags" jsonb,
	"meta" jsonb,
	"data" jsonb,
	"deleted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone,
	"created_by_id" uuid
);
--> statement-breakpoint
CREATE TABLE "evaluation_results" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"scenario_id" uuid NOT NULL,
	"step_key" text NOT NULL,
	"repeat_idx" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"trace_id" text,
	"testcase_id" uuid,
	"hash_id" text,
	"error" jsonb,
	"interval" integer,
	"timestamp" timestamp (3) with time zone,
	"flags" jsonb,
	"tags" jsonb,
	"meta" jsonb,
	"outputs" jsonb,
	"latency_ms" double precision,
	"tokens" integer,
	"cost_usd" double precision,
	"due_at" timestamp (3) with time zone,
	"lease_until" timestamp (3) with time zone,
	"lease_token" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "evaluation_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text,
	"description" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"flags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tags" jsonb,
	"meta" jsonb,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp (3) with time zone,
	"deadline_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone,
	"created_by_id" uuid,
	"updated_by_id" uuid
);
--> statement-breakpoint
CREATE TABLE "evaluation_scenarios" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"interval" integer,
	"timestamp" timestamp (3) with time zone,
	"flags" jsonb,
	"tags" jsonb,
	"meta" jsonb,
	"testcase_id" uuid,
	"inputs" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "evaluation_metrics" ADD CONSTRAINT "evaluation_metrics_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_metrics" ADD CONSTRAINT "evaluation_metrics_run_id_evaluation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."evaluation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_metrics" ADD CONSTRAINT "evaluation_metrics_scenario_id_evaluation_scenarios_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "public"."evaluation_scenarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_queues" ADD CONSTRAINT "evaluation_queues_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_queues" ADD CONSTRAINT "evaluation_queues_run_id_evaluation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."evaluation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_run_id_evaluation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."evaluation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_scenario_id_evaluation_scenarios_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "public"."evaluation_scenarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_runs" ADD CONSTRAINT "evaluation_runs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_scenarios" ADD CONSTRAINT "evaluation_scenarios_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_scenarios" ADD CONSTRAINT "evaluation_scenarios_run_id_evaluation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."evaluation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_metrics_global_idx" ON "evaluation_metrics" USING btree ("run_id") WHERE scenario_id is null and timestamp is null;--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_metrics_variational_idx" ON "evaluation_metrics" USING btree ("run_id","scenario_id") WHERE scenario_id is not null and timestamp is null;--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_metrics_temporal_idx" ON "evaluation_metrics" USING btree ("run_id","timestamp") WHERE timestamp is not null and scenario_id is null;--> statement-breakpoint
CREATE INDEX "evaluation_metrics_project_idx" ON "evaluation_metrics" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_queues_default_idx" ON "evaluation_queues" USING btree ("run_id") WHERE (flags ->> 'is_default')::boolean;--> statement-breakpoint
CREATE INDEX "evaluation_queues_project_idx" ON "evaluation_queues" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_results_cell_idx" ON "evaluation_results" USING btree ("run_id","scenario_id","step_key","repeat_idx");--> statement-breakpoint
CREATE INDEX "evaluation_results_scenario_idx" ON "evaluation_results" USING btree ("scenario_id");--> statement-breakpoint
CREATE INDEX "evaluation_results_project_idx" ON "evaluation_results" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "evaluation_results_work_idx" ON "evaluation_results" USING btree ("run_id","status","due_at");--> statement-breakpoint
CREATE INDEX "evaluation_runs_project_idx" ON "evaluation_runs" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "evaluation_runs_active_idx" ON "evaluation_runs" USING btree ("status") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "evaluation_scenarios_run_idx" ON "evaluation_scenarios" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "evaluation_scenarios_project_idx" ON "evaluation_scenarios" USING btree ("project_id","id");