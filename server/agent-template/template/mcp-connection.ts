import { z } from "zod";
import { closedObject } from "./closed-object";
import { httpHeaderName } from "./http-header-name";
import { nonEmptyText } from "./text";

const HTTP_URL = /^https?:\/\/\S+$/;

const noCredentials = closedObject({ type: z.literal("none") });

const headerSecretRefs = closedObject({
  type: z.literal("header_secret_refs"),
  headers: z
    .record(httpHeaderName(), nonEmptyText())
    .describe("Header name to secret name; values resolve at run time and are never stored in the configuration."),
});

export const mcpConnectionSchema = closedObject({
  type: z.literal("http").default("http").describe("Transport; the only value."),
  url: z.string().regex(HTTP_URL, "must be an http:// or https:// URL").describe("Server URL."),
  headers: z.record(httpHeaderName(), z.string()).default({}).describe("Static request headers."),
  credentials: z
    .discriminatedUnion("type", [noCredentials, headerSecretRefs])
    .default(() => ({ type: "none" as const }))
    .describe("`none`, or `header_secret_refs` with a map of header name to secret name."),
}).describe("How the server is reached.");
