import { timestamp } from "drizzle-orm/pg-core";

/** Timestamps keep milliseconds, the precision of the wire format. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
