import { manySchema } from "@/server/http/envelope";
import { many } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { exposureInput, exposureWire } from "./exposure-input";
import { getExposure, setExposure } from "./exposure-settings";

const TAG = "exposure";
const listWire = manySchema("exposures", exposureWire);

export const exposureRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/exposure",
    auth: "api_key",
    tag: TAG,
    summary:
      "Which deployed agents (agent at environment) and prompt applications the project exposes to agent clients (MCP, A2A); empty by default",
    response: listWire,
    handler: async ({ ctx }) => many("exposures", await getExposure(ctx.app.db, ctx.principal.projectId)),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/exposure",
    auth: "api_key",
    role: "owner",
    tag: TAG,
    summary:
      "Replace what the project exposes (owners; audited; emits exposure.settings.updated). Each entry names an agent or prompt application, an environment, and optionally the tool or prompt name",
    body: exposureInput,
    response: listWire,
    errors: ["invalid_exposure"],
    handler: async ({ ctx, body }) =>
      many(
        "exposures",
        await setExposure(ctx.app, { projectId: ctx.principal.projectId, userId: ctx.principal.userId }, body),
      ),
  }),
];
