CREATE TABLE "deploy_gates" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"testset_id" uuid NOT NULL,
	"evaluator_id" uuid NOT NULL,
	"min_score" double precision NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_by_id" uuid
);
--> statement-breakpoint
ALTER TABLE "deploy_gates" ADD CONSTRAINT "deploy_gates_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploy_gates" ADD CONSTRAINT "deploy_gates_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;