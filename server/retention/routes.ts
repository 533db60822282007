import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { deleteChatSessionData, deleteUserData } from "./delete-data";
import { getRetentionSettings, retentionSettingsInput, setRetentionSettings } from "./retention-settings";

const TAG = "retention";
const settingsWire = z.object({ retention: retentionSettingsInput });
const deletionWire = z.object({
  data_deletion: z.object({
    target: z.object({ type: z.enum(["chat_session", "user"]), id: z.string() }),
    deleted: z.record(z.string(), z.number().int()).describe("Rows deleted (or cleared) per kind"),
  }),
});

export const retentionRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/retention/settings",
    auth: "api_key",
    tag: TAG,
    summary:
      "How many days the project keeps traces, runs, chat sessions, evaluation results and events (null: forever)",
    response: settingsWire,
    handler: async ({ ctx }) => ({ retention: await getRetentionSettings(ctx.app.db, ctx.principal.projectId) }),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/retention/settings",
    auth: "api_key",
    role: "owner",
    tag: TAG,
    summary: "Replace the project's retention (owners; audited); the workers delete what is past its age in batches",
    body: retentionSettingsInput,
    response: settingsWire,
    errors: ["retention_exceeds_server"],
    handler: async ({ ctx, body }) => ({
      retention: await setRetentionSettings(ctx.app, ctx.principal.projectId, body),
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/retention/delete-session",
    auth: "api_key",
    role: "owner",
    tag: TAG,
    summary:
      "Delete one chat session everywhere it was stored: the session, its runs and event logs, their traces, events naming them (owners; audited with counts)",
    body: z.strictObject({ session_id: z.string().min(1).max(500) }),
    response: deletionWire,
    handler: async ({ ctx, body }) => ({
      data_deletion: await deleteChatSessionData(ctx.app.db, ctx.principal.projectId, body.session_id),
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/retention/delete-user",
    auth: "api_key",
    role: "owner",
    tag: TAG,
    summary:
      "Delete one user's data (a GDPR request): sessions the account created, runs it started, traces whose root names the user id, with everything linked (owners; audited with counts)",
    body: z.strictObject({ user_id: z.string().min(1).max(500) }),
    response: deletionWire,
    handler: async ({ ctx, body }) => ({
      data_deletion: await deleteUserData(ctx.app.db, ctx.principal.projectId, body.user_id),
    }),
  }),
];
