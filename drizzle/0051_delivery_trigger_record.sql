-- What a firing ran, kept on its row (server/automations/firing-store.ts): its trigger's references
-- and event type when it was written and dispatched, and the inputs its run was given (redacted as
-- the payload is). Null on firings recorded before this migration; nothing is back-filled (the
-- trigger's values now are not what those firings ran).
ALTER TABLE "automation_deliveries" ADD COLUMN "trigger_references" jsonb;--> statement-breakpoint
ALTER TABLE "automation_deliveries" ADD COLUMN "trigger_event_type" text;--> statement-breakpoint
ALTER TABLE "automation_deliveries" ADD COLUMN "inputs" jsonb;