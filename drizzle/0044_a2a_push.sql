CREATE TABLE "a2a_push_configs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"task_id" text NOT NULL,
	"config_id" text NOT NULL,
	"url" text NOT NULL,
	"wire_version" text NOT NULL,
	"sealed_token" text NOT NULL,
	"auth_scheme" text,
	"sealed_credentials" text,
	"queued_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "a2a_push_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"push_config_id" uuid NOT NULL,
	"state" text NOT NULL,
	"url" text NOT NULL,
	"payload" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"lease_until" timestamp (3) with time zone,
	"lease_token" uuid,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "a2a_push_configs" ADD CONSTRAINT "a2a_push_configs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_push_configs" ADD CONSTRAINT "a2a_push_configs_task_id_agent_runs_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."agent_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_push_deliveries" ADD CONSTRAINT "a2a_push_deliveries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_push_deliveries" ADD CONSTRAINT "a2a_push_deliveries_push_config_id_a2a_push_configs_id_fk" FOREIGN KEY ("push_config_id") REFERENCES "public"."a2a_push_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "a2a_push_configs_task_config_idx" ON "a2a_push_configs" USING btree ("task_id","config_id");--> statement-breakpoint
CREATE INDEX "a2a_push_configs_waiting_idx" ON "a2a_push_configs" USING btree ("created_at") WHERE queued_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "a2a_push_deliveries_config_state_idx" ON "a2a_push_deliveries" USING btree ("push_config_id","state");--> statement-breakpoint
CREATE INDEX "a2a_push_deliveries_due_idx" ON "a2a_push_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';