import { z } from "zod";

/** Wire format for every timestamp: ISO 8601 UTC with milliseconds. */
export function toIso(date: Date): string {
  return date.toISOString();
}

/** The wire timestamp's schema (response contracts). */
export const isoTimestampSchema = z.iso.datetime();
