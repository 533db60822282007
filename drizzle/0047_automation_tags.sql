ALTER TABLE "automations" ADD COLUMN "tags" jsonb;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "meta" jsonb;