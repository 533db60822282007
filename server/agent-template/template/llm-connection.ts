import { z } from "zod";
import { closedObject } from "./closed-object";
import { fieldsParsed } from "./fields-parsed";
import { nonEmptyText } from "./text";

export const CONNECTION_MODES = ["managed", "self_managed"] as const;
export type ConnectionMode = (typeof CONNECTION_MODES)[number];

export const llmConnectionSchema = closedObject({
  mode: z
    .enum(CONNECTION_MODES)
    .default("managed")
    .describe(
      "`managed` uses a connection stored in the project; `self_managed` injects no credential and the harness signs itself in.",
    ),
  slug: nonEmptyText().nullable().default(null).describe("Named stored connection; valid only with mode `managed`."),
})
  .superRefine(
    (connection, ctx) => {
      if (connection.mode === "self_managed" && connection.slug !== null) {
        ctx.addIssue({
          code: "custom",
          path: ["slug"],
          message:
            'slug names a stored connection and is valid only with mode "managed"; remove slug or set mode to "managed"',
        });
      }
    },
    { when: fieldsParsed("mode", "slug") },
  )
  .meta({
    if: { type: "object", properties: { mode: { const: "self_managed" } }, required: ["mode"] },
    then: { properties: { slug: { type: "null" } } },
  })
  .describe("Source of the credential; omit (null) for the project default.");
