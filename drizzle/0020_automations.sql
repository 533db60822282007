CREATE TABLE "automation_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"event_key" text NOT NULL,
	"scheduled_at" timestamp (3) with time zone,
	"fired_at" timestamp (3) with time zone,
	"status" text NOT NULL,
	"payload" jsonb,
	"run_id" text,
	"session_id" text,
	"trace_id" text,
	"error" text,
	"lease_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"target" jsonb NOT NULL,
	"input" jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"cron" text,
	"timezone" text,
	"overlap_policy" text,
	"next_fire_at" timestamp (3) with time zone,
	"last_fired_at" timestamp (3) with time zone,
	"catch_up_seconds" integer,
	"event_types" jsonb,
	"filter" jsonb,
	"events_since" timestamp (3) with time zone,
	"event_cursor_at" timestamp (3) with time zone,
	"signature_scheme" text,
	"sealed_secret" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"deleted_by" uuid
);
--> statement-breakpoint
ALTER TABLE "automation_deliveries" ADD CONSTRAINT "automation_deliveries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_deliveries" ADD CONSTRAINT "automation_deliveries_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automation_deliveries_key_idx" ON "automation_deliveries" USING btree ("automation_id","event_key");--> statement-breakpoint
CREATE INDEX "automation_deliveries_list_idx" ON "automation_deliveries" USING btree ("project_id","automation_id","created_at");--> statement-breakpoint
CREATE INDEX "automation_deliveries_open_idx" ON "automation_deliveries" USING btree ("created_at") WHERE status in ('pending', 'queued');--> statement-breakpoint
CREATE INDEX "automations_project_idx" ON "automations" USING btree ("project_id","kind","id");--> statement-breakpoint
CREATE INDEX "automations_due_idx" ON "automations" USING btree ("next_fire_at") WHERE kind = 'schedule' and is_active and deleted_at is null;