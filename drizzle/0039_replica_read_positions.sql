-- UNLOGGED: positions are not replicated nor flushed (server/db/README.md, "Read replicas").
CREATE UNLOGGED TABLE "replica_read_positions" (
	"caller" text PRIMARY KEY NOT NULL,
	"lsn" "pg_lsn" NOT NULL
);
