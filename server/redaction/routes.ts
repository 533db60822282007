import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { Redactor } from "./redactor";
import { getRedactionSettings, redactionSettingsInput, setRedactionSettings } from "./redaction-settings";

const TAG = "redaction";
const settingsWire = z.object({ redaction: redactionSettingsInput });

export const redactionRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/redaction/settings",
    auth: "api_key",
    tag: TAG,
    summary:
      "The project's redaction before storage: built-in kinds, its own patterns, and whether model input is redacted",
    response: settingsWire,
    handler: async ({ ctx }) => ({ redaction: await getRedactionSettings(ctx.app.db, ctx.principal.projectId) }),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/redaction/settings",
    auth: "api_key",
    role: "owner",
    tag: TAG,
    summary: "Replace the project's redaction settings (owners; audited); applies to what is stored from now on",
    body: redactionSettingsInput,
    response: settingsWire,
    errors: ["invalid_pattern"],
    handler: async ({ ctx, body }) => ({
      redaction: await setRedactionSettings(ctx.app.db, ctx.principal.projectId, body),
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/redaction/try",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary: "What a sample becomes under the given settings (or the project's when none are given); stores nothing",
    body: z.strictObject({ text: z.string().max(100_000), settings: redactionSettingsInput.optional() }),
    response: z.object({ redacted: z.string() }),
    handler: async ({ ctx, body }) => {
      const settings = body.settings ?? (await getRedactionSettings(ctx.app.db, ctx.principal.projectId));
      return { redacted: new Redactor(settings).text(body.text) };
    },
  }),
];
