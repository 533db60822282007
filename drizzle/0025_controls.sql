CREATE TABLE "budget_spend" (
	"budget_id" uuid NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"spent_usd" double precision NOT NULL,
	CONSTRAINT "budget_spend_budget_id_window_start_pk" PRIMARY KEY("budget_id","window_start")
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"target_id" uuid,
	"name" text NOT NULL,
	"window" text NOT NULL,
	"time_zone" text NOT NULL,
	"limit_usd" double precision NOT NULL,
	"warn_percent" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_aliases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"entries" jsonb NOT NULL,
	"attempt_timeout_ms" integer DEFAULT 15000 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_allowlists" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"target_id" uuid,
	"patterns" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_rate_limits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"target_id" uuid,
	"requests_per_minute" integer,
	"tokens_per_minute" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_points" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "budget_spend" ADD CONSTRAINT "budget_spend_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_aliases" ADD CONSTRAINT "model_aliases_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_allowlists" ADD CONSTRAINT "model_allowlists_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_rate_limits" ADD CONSTRAINT "model_rate_limits_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budgets_project_idx" ON "budgets" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "model_aliases_name_idx" ON "model_aliases" USING btree ("project_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "model_allowlists_target_idx" ON "model_allowlists" USING btree ("project_id","scope",coalesce("target_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE UNIQUE INDEX "model_rate_limits_target_idx" ON "model_rate_limits" USING btree ("project_id","scope",coalesce("target_id", '00000000-0000-0000-0000-000000000000'::uuid));