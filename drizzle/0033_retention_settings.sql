CREATE TABLE "retention_settings" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"traces_days" integer,
	"runs_days" integer,
	"chat_sessions_days" integer,
	"evaluation_results_days" integer,
	"events_days" integer,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "retention_settings" ADD CONSTRAINT "retention_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;