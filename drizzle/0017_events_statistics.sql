-- The statistics worker analyzes events at every 10% of growth, and read events make it the
-- fastest-growing table: at the default target an ANALYZE sampled 30,000 rows and took 0.35-0.7 s
-- of CPU, a stall for everything else on the database's cores. Events are read by project, type and
-- id range through their indexes, which a 3,000-row sample (target 10) plans as well; nothing
-- filters on attributes, so they are not sampled at all. ANALYZE now takes 30-55 ms
-- (server/db/README.md, "Plans and statistics").
ALTER TABLE "events" ALTER COLUMN "attributes" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "id" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "project_id" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "event_type" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "timestamp" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "created_at" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "fanned_out_at" SET STATISTICS 10;
