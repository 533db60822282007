ALTER TABLE "api_keys" ADD COLUMN "scopes" text[] DEFAULT '{full}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp (3) with time zone;