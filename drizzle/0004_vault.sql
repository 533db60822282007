CREATE TABLE "vault_secrets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"sealed" text NOT NULL,
	"key_tail" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vault_secrets" ADD CONSTRAINT "vault_secrets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vault_secrets_slug_idx" ON "vault_secrets" USING btree ("project_id","slug");--> statement-breakpoint
CREATE INDEX "vault_secrets_provider_idx" ON "vault_secrets" USING btree ("project_id","provider");