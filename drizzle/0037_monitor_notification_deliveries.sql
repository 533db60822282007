ALTER TABLE "monitor_notifications" ADD COLUMN "host" text;--> statement-breakpoint
ALTER TABLE "monitor_notifications" ADD COLUMN "last_attempt_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "monitor_notifications_monitor_idx" ON "monitor_notifications" USING btree ("monitor_id","id");--> statement-breakpoint
UPDATE "monitor_notifications" n SET "host" = m."channels"->n."channel"->>'host', "last_attempt_at" = n."sent_at" FROM "monitors" m WHERE m."id" = n."monitor_id";
