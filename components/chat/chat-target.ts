import type { UIMessage } from "ai";

/**
 * What a chat runs: the editor's unsaved template (attributed to the variant it is a draft of), or
 * a committed revision the server resolves.
 */
export type ChatTarget =
  | { kind: "draft"; template: unknown; variantId: string }
  | { kind: "variant"; variantId: string }
  | { kind: "revision"; revisionId: string }
  /** Resolved on every turn, so a deploy mid-conversation takes effect on the next message. */
  | { kind: "environment"; environmentSlug: string; key: string };

/** The invoke body (server/agent-runs/invoke/invoke-request.ts) for one chat request. */
export function invokeBody(sessionId: string, target: ChatTarget, messages: UIMessage[]) {
  const inputs = { messages };
  const flags = { stream: true };
  switch (target.kind) {
    case "draft":
      return {
        session_id: sessionId,
        flags,
        references: { workflow_variant: { id: target.variantId } },
        data: { inputs, parameters: { agent: target.template } },
      };
    case "variant":
      return {
        session_id: sessionId,
        flags,
        references: { workflow_variant: { id: target.variantId } },
        data: { inputs },
      };
    case "revision":
      return {
        session_id: sessionId,
        flags,
        references: { workflow_revision: { id: target.revisionId } },
        data: { inputs },
      };
    case "environment":
      return {
        session_id: sessionId,
        flags,
        references: { environment: { slug: target.environmentSlug }, key: target.key },
        data: { inputs },
      };
  }
}
