import { describe, expect, it } from "vitest";
import { agentInspectInterface } from "./agent-inspect-interface";
import { defaultAgentTemplate } from "./default-agent-template";

describe("agentInspectInterface", () => {
  const { interface: contract } = agentInspectInterface();

  it("names the agent workflow", () => {
    expect(contract.uri).toBe("svc:agent:v0");
  });

  it("types parameters.agent as the agent-template catalog type, defaulting to the default template", () => {
    const agent = (contract.schemas.parameters.properties as Record<string, Record<string, unknown>>).agent;
    expect(agent).toMatchObject({
      type: "object",
      "x-catalog-type": "agent-template",
      "x-catalog-url": "/api/workflows/catalog/types/agent-template",
    });
    expect(agent?.default).toEqual(defaultAgentTemplate());
  });

  it("declares inputs.messages and outputs.messages as the messages catalog type", () => {
    for (const schema of [contract.schemas.inputs, contract.schemas.outputs]) {
      expect(schema.required).toEqual(["messages"]);
      expect((schema.properties as Record<string, unknown>).messages).toMatchObject({
        type: "array",
        "x-catalog-type": "messages",
        "x-catalog-url": "/api/workflows/catalog/types/messages",
      });
    }
  });

  it("lists stop_reason and pending_interaction among the outputs", () => {
    expect(Object.keys(contract.schemas.outputs.properties as object)).toEqual([
      "messages",
      "stop_reason",
      "pending_interaction",
    ]);
  });
});
