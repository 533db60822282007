CREATE TABLE "redaction_settings" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"kinds" text[] NOT NULL,
	"patterns" jsonb NOT NULL,
	"model_input" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "redaction_settings" ADD CONSTRAINT "redaction_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;