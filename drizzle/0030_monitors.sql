CREATE TABLE "monitor_alerts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"monitor_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"previous_state" text NOT NULL,
	"value" double precision,
	"threshold" double precision NOT NULL,
	"samples" integer NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"window_end" timestamp (3) with time zone NOT NULL,
	"evaluated_at" timestamp (3) with time zone NOT NULL,
	"muted" boolean NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_notifications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"monitor_id" uuid NOT NULL,
	"alert_id" uuid NOT NULL,
	"channel" integer NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	"lease_until" timestamp (3) with time zone,
	"response_status" integer,
	"last_error" text,
	"sent_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"metric" jsonb NOT NULL,
	"scope" jsonb NOT NULL,
	"window_seconds" integer NOT NULL,
	"operator" text NOT NULL,
	"threshold" double precision NOT NULL,
	"recovery_threshold" double precision NOT NULL,
	"min_samples" integer NOT NULL,
	"renotify_seconds" integer,
	"channels" jsonb NOT NULL,
	"muted_until" timestamp (3) with time zone,
	"state" text DEFAULT 'no_data' NOT NULL,
	"state_since" timestamp (3) with time zone NOT NULL,
	"last_value" double precision,
	"last_samples" integer,
	"last_evaluated_at" timestamp (3) with time zone,
	"last_notified_at" timestamp (3) with time zone,
	"next_evaluation_at" timestamp (3) with time zone NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monitor_alerts" ADD CONSTRAINT "monitor_alerts_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_notifications" ADD CONSTRAINT "monitor_notifications_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_notifications" ADD CONSTRAINT "monitor_notifications_alert_id_monitor_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."monitor_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_alerts_once" ON "monitor_alerts" USING btree ("monitor_id","evaluated_at","kind");--> statement-breakpoint
CREATE INDEX "monitor_alerts_monitor_idx" ON "monitor_alerts" USING btree ("monitor_id","evaluated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_notifications_once" ON "monitor_notifications" USING btree ("alert_id","channel");--> statement-breakpoint
CREATE INDEX "monitor_notifications_due_idx" ON "monitor_notifications" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "monitors_project_idx" ON "monitors" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "monitors_due_idx" ON "monitors" USING btree ("next_evaluation_at");