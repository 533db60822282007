-- No query filters or joins on events.attributes, so ANALYZE need not sample it: the statistics
-- worker analyzes events at every 10% of growth, and the JSON column was about half of each
-- ANALYZE (server/db/README.md, "Plans and statistics").
ALTER TABLE "events" ALTER COLUMN "attributes" SET STATISTICS 0;
