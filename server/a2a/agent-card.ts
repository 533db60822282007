import { AgentCard, type AgentSkill } from "@a2a-js/sdk";
import type { ExposedTarget } from "@/server/exposure";

/** What the card says of one of the agent's tools (template tool entries carry more). */
export interface CardTool {
  type: string;
  name?: string | null;
  description?: string | null;
}

/** The one security scheme: the project's API key as a bearer token. */
export const BEARER_SCHEME = "apiKey";

const TEXT = ["text/plain"];

function skill(id: string, name: string, description: string, tags: string[]): AgentSkill {
  return { id, name, description, tags, examples: [], inputModes: TEXT, outputModes: TEXT, securityRequirements: [] };
}

/**
 * The agent card of an exposed agent, as JSON: one skill for the agent (its description) and one per
 * named tool it can use; JSON-RPC at `endpoint` for protocol 1.0 and 0.3 (`message/send` ...);
 * streaming on; push notifications on (a task's settled state is pushed: push-queue.ts); a bearer API key required.
 */
export function agentCard(
  target: Pick<ExposedTarget, "name" | "environment" | "title" | "description" | "version">,
  tools: CardTool[],
  endpoint: string,
): unknown {
  const description = target.description ?? `${target.title}, as ${target.environment} runs it.`;
  const named = tools.filter((tool): tool is CardTool & { name: string } => Boolean(tool.name));
  const card: AgentCard = {
    name: target.title,
    description,
    supportedInterfaces: ["1.0", "0.3"].map((protocolVersion) => ({
      url: endpoint,
      protocolBinding: "JSONRPC",
      tenant: "",
      protocolVersion,
    })),
    provider: undefined,
    version: target.version,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      [BEARER_SCHEME]: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: {
            description:
              "An API key of the project (Authorization: Bearer <key>); a run key or better calls, a read key reads",
            scheme: "bearer",
            bearerFormat: "API key",
          },
        },
      },
    },
    securityRequirements: [{ schemes: { [BEARER_SCHEME]: { list: [] } } }],
    defaultInputModes: TEXT,
    defaultOutputModes: TEXT,
    skills: [
      skill(target.name, target.title, description, ["agent", target.environment]),
      ...named.map((tool) =>
        skill(
          `${target.name}/tool/${tool.name}`,
          tool.name,
          tool.description ?? `The agent's ${tool.type} tool ${tool.name}`,
          ["tool", tool.type],
        ),
      ),
    ],
    signatures: [],
  };
  return AgentCard.toJSON(card);
}
