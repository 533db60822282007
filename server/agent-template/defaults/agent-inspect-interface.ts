import { z } from "zod";
import { catalogTypeUrl, type CatalogTypeKey, type JsonSchema } from "../catalog";
import { defaultAgentTemplate } from "./default-agent-template";

/** Versioned uri of the agent workflow. */
export const AGENT_WORKFLOW_URI = "svc:agent:v0";

/**
 * A property typed by a catalog type. `x-catalog-type` names it and `x-catalog-url` is where
 * to fetch its JSON Schema; not a `$ref`, because that endpoint answers with an envelope, not
 * a bare schema, and generic validators would try to dereference it.
 */
function catalogTyped(key: CatalogTypeKey, base: JsonSchema, extra: JsonSchema = {}): JsonSchema {
  return { ...base, "x-catalog-type": key, "x-catalog-url": catalogTypeUrl(key), ...extra };
}

const objectSchema = (properties: JsonSchema, required: string[]): JsonSchema => ({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties,
  required,
});

const jsonSchemaDocument = z.record(z.string(), z.unknown());

/** The schema of the inspect body: the interface's uri and the JSON Schemas of its parts. */
export const agentInspectInterfaceWire = z.strictObject({
  interface: z.strictObject({
    uri: z.string(),
    schemas: z.strictObject({
      parameters: jsonSchemaDocument,
      inputs: jsonSchemaDocument,
      outputs: jsonSchemaDocument,
    }),
  }),
});

/** Body of GET /services/agent/v0/inspect: the agent workflow's interface. */
export function agentInspectInterface() {
  return {
    interface: {
      uri: AGENT_WORKFLOW_URI,
      schemas: {
        parameters: objectSchema(
          {
            agent: catalogTyped(
              "agent-template",
              { type: "object" },
              {
                description: "The agent template.",
                default: defaultAgentTemplate(),
              },
            ),
          },
          [],
        ),
        inputs: objectSchema(
          {
            messages: catalogTyped(
              "messages",
              { type: "array" },
              { description: "Conversation so far, oldest first." },
            ),
          },
          ["messages"],
        ),
        outputs: objectSchema(
          {
            messages: catalogTyped("messages", { type: "array" }, { description: "The folded turn." }),
            stop_reason: { type: "string", description: "Raw stop reason, when the turn produced one." },
            pending_interaction: {
              type: "object",
              description: "The interaction awaited, when stop_reason is paused.",
            },
          },
          ["messages"],
        ),
      },
    },
  };
}
