import { describe, expect, it } from "vitest";
import { tabOfPath, variantTabPath } from "@/components/agents/agent-paths";
import { chatErrorMessage } from "@/components/chat/chat-error";
import { invokeBody } from "@/components/chat/chat-target";
import { formatCost, formatUsage } from "@/components/chat/turn-usage";
import { invokeRequestSchema } from "@/server/agent-runs/invoke";

const messages = [{ id: "u1", role: "user" as const, parts: [{ type: "text" as const, text: "hi" }] }];
const revisionId = "0190a4b2-7c3d-7e8f-9a0b-1c2d3e4f5a6b";

describe("invokeBody", () => {
  it("sends the draft inline (naming the variant it drafts) and committed targets as references, each a valid invoke body", () => {
    const bodies = [
      invokeBody("chat-1", { kind: "draft", template: { tools: [] }, variantId: revisionId }, messages),
      invokeBody("chat-1", { kind: "variant", variantId: revisionId }, messages),
      invokeBody("chat-1", { kind: "revision", revisionId }, messages),
      invokeBody("chat-1", { kind: "environment", environmentSlug: "production", key: "colours.revision" }, messages),
    ];
    for (const body of bodies) expect(invokeRequestSchema.safeParse(body).success).toBe(true);
    expect(bodies[0]).toMatchObject({
      session_id: "chat-1",
      flags: { stream: true },
      references: { workflow_variant: { id: revisionId } },
      data: { parameters: { agent: { tools: [] } }, inputs: { messages } },
    });
    expect(bodies[1]).toMatchObject({ references: { workflow_variant: { id: revisionId } } });
    expect(bodies[2]).toMatchObject({ references: { workflow_revision: { id: revisionId } } });
    expect(bodies[3]).toMatchObject({ references: { environment: { slug: "production" }, key: "colours.revision" } });
    expect(bodies[3].data).not.toHaveProperty("parameters");
  });
});

describe("chatErrorMessage", () => {
  it("shows the server's detail and field errors, not the raw JSON", () => {
    const body = {
      detail: "Request body is invalid",
      code: "validation_error",
      errors: [{ path: "session_id", message: "too long" }],
    };
    expect(chatErrorMessage(new Error(JSON.stringify(body)))).toBe("Request body is invalid (session_id: too long)");
    expect(chatErrorMessage(new Error(JSON.stringify({ detail: "Log in to use the playground" })))).toBe(
      "Log in to use the playground",
    );
    expect(chatErrorMessage(new Error("Failed to fetch"))).toBe("Failed to fetch");
  });

  it("reads the reference's object form of detail (a 500, a conflict) as its message", () => {
    const body = { detail: { message: "Internal server error; quote request id r1", request_id: "r1" }, code: "x" };
    expect(chatErrorMessage(new Error(JSON.stringify(body)))).toBe("Internal server error; quote request id r1");
  });
});

describe("usage", () => {
  it("reads tokens and cost; small costs keep two significant digits", () => {
    expect(formatUsage({ input: 1200, output: 300, total: 1500, cost: 0.0009 })).toBe("1,200 in · 300 out · $0.00090");
    expect(formatUsage({ input: 10, output: 5, total: 15 })).toBe("10 in · 5 out");
    expect(formatCost(1.5)).toBe("$1.50");
    expect(formatCost(0)).toBe("$0");
  });
});

describe("agent paths", () => {
  it("the chat tab has its own URL", () => {
    expect(variantTabPath("a", "v", "chat")).toBe("/agents/a/variants/v/chat");
    expect(tabOfPath("/agents/a/variants/v/chat")).toBe("chat");
  });
});
