import { expect } from "vitest";
import { drainIngestQueue } from "@/server/tracing";
import type { TestApp } from "../helpers/test-app";

/** Agents stored as workflows, and their traces, for the tool tests that run them by reference. */
export function agentWorkflows(app: TestApp, key: string) {
  return {
    async create(slug: string, agent: unknown): Promise<{ artifactId: string; variantId: string; revisionId: string }> {
      const res = await app.call("POST", "/api/workflows/", {
        key,
        body: { workflow: { slug, name: slug, data: { parameters: { agent } } } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return {
        artifactId: res.body.workflow.id,
        variantId: res.body.workflow_variant.id,
        revisionId: res.body.workflow_revision.id,
      };
    },
    async commit(variantId: string, agent: unknown): Promise<{ id: string; version: string }> {
      const res = await app.call("POST", "/api/workflows/revisions/commit", {
        key,
        body: {
          workflow_revision_commit: {
            workflow_variant_id: variantId,
            message: "edit",
            data: { parameters: { agent } },
          },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.workflow_revision;
    },
    async deploy(revisionId: string, environment: string): Promise<void> {
      const res = await app.call("POST", "/api/workflows/revisions/deploy", {
        key,
        body: { workflow_revision_ref: { id: revisionId }, environment_ref: { slug: environment } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    },
    /** A run's trace once its spans went through the ingest queue, waiting for `spans` of them. */
    async spans(traceId: string, atLeast: number): Promise<SpanNode[]> {
      for (let i = 0; i < 100; i++) {
        await drainIngestQueue(app.context);
        const res = await app.call("GET", `/api/traces/${traceId}`, { key });
        const found = res.status === 200 && res.body.count > 0 ? spansOf(res.body) : [];
        if (found.length >= atLeast) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`trace ${traceId} never reached ${atLeast} spans`);
    },
  };
}

export interface SpanNode {
  span_id: string;
  span_name: string;
  parent_id?: string;
  trace_id?: string;
  attributes?: Record<string, any>;
}

/** Every span of a fetched trace, flattened, whatever the nesting shape. */
function spansOf(value: unknown): SpanNode[] {
  if (!value || typeof value !== "object") return [];
  const out: SpanNode[] = [];
  const node = value as Record<string, unknown>;
  if (typeof node.span_id === "string" && typeof node.span_name === "string") out.push(node as unknown as SpanNode);
  for (const child of Object.values(node)) if (child && typeof child === "object") out.push(...spansOf(child));
  return [...new Map(out.map((s) => [s.span_id, s])).values()];
}
