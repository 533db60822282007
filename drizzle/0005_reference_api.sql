ALTER TABLE "artifacts" ADD COLUMN "flags" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "flags" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "tags" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "meta" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "updated_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "flags" jsonb DEFAULT '{}'::jsonb NOT NULL;