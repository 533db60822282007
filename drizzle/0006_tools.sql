CREATE TABLE "sandbox_workspaces" (
	"project_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"entries" jsonb NOT NULL,
	"size_bytes" integer NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_workspaces_project_id_session_id_pk" PRIMARY KEY("project_id","session_id")
);
--> statement-breakpoint
CREATE TABLE "tool_approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"tool_name" text NOT NULL,
	"args_hash" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_workspaces" ADD CONSTRAINT "sandbox_workspaces_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_approvals" ADD CONSTRAINT "tool_approvals_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;