import { text, timestamp } from "drizzle-orm/pg-core";

/** Timestamps keep milliseconds, the precision of the wire format. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** The dimensions analytics groups a run by, as both roll-ups key them ('' when missing). */
export const runDimensions = () => ({
  agent: text("agent").notNull(),
  model: text("model").notNull(),
  provider: text("provider").notNull(),
  environment: text("environment").notNull(),
  revision: text("revision").notNull(),
  apiKey: text("api_key").notNull(),
  userId: text("user_id").notNull(),
});
