"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import type { EditorView } from "@/components/agents";
import { useTRPC } from "@/components/trpc";
import { Button, Notice, describeLoadError } from "@/components/ui";
import { browserStorage, createDraftStore } from "./draft-storage";
import { EditorSession } from "./editor-session";
import { AgentEditorSkeleton } from "./agent-editor-skeleton";
import { getIn } from "./json-path";
import { orderLikeSchema } from "./schema-key-order";
import { readTemplateOptions } from "./schema-options";
import { serverWarningToIssue } from "./server-issues";
import type { TemplateIssue } from "./template-issue";
import type { CommitResult, EditorBase } from "./types";
import { useSchemaValidator } from "./use-schema-validator";

/** `/agents/[id]/variants/[variantId]`: the template editor on the variant's newest revision. */
export function AgentEditor({ agentId, variantId }: { agentId: string; variantId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view: EditorView = useSearchParams().get("view") === "json" ? "json" : "form";
  const latest = useQuery(trpc.agents.history.queryOptions({ variantId, limit: 1 }));
  const harnesses = useQuery({ ...trpc.catalog.harnesses.queryOptions(), staleTime: Infinity });
  const validator = useSchemaValidator();
  const options = useMemo(() => readTemplateOptions(validator.schema), [validator.schema]);
  const [committed, setCommitted] = useState<{ revisionId: string; issues: TemplateIssue[]; text: string } | null>(
    null,
  );

  function onCommitted(result: CommitResult) {
    const { revision } = result;
    // The new session must not find the committed draft and offer it back.
    createDraftStore(browserStorage()).clear(variantId);
    const warnings = result.warnings.length;
    setCommitted({
      revisionId: revision.id,
      issues: result.warnings.map(serverWarningToIssue),
      text: `Committed version ${revision.version}${warnings > 0 ? ` with ${warnings} ${warnings === 1 ? "warning" : "warnings"}` : ""}`,
    });
    queryClient.setQueryData(trpc.agents.history.queryKey({ variantId, limit: 1 }), {
      items: [revision],
      next: undefined,
    });
    void queryClient.invalidateQueries({ queryKey: trpc.agents.get.queryKey({ id: agentId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.agents.list.pathKey() });
    // Other views of the history (the History tab) refetch; this page already has its revision.
    void queryClient.invalidateQueries({ queryKey: trpc.agents.history.pathKey() });
  }

  if (latest.isPending || harnesses.isPending || validator.schemaPending) return <AgentEditorSkeleton />;
  if (latest.isError || harnesses.isError) {
    const text = describeLoadError(latest.error ?? harnesses.error);
    return (
      <div className="mx-auto w-full max-w-4xl px-4 py-8 md:px-6">
        <Notice
          tone="danger"
          title="Could not load the template"
          action={
            text.retry ? (
              <Button size="sm" onClick={() => void Promise.all([latest.refetch(), harnesses.refetch()])}>
                Retry
              </Button>
            ) : undefined
          }
        >
          {text.message}
        </Notice>
      </div>
    );
  }
  const revision = latest.data.items[0];
  if (!revision) {
    return (
      <div className="mx-auto w-full max-w-4xl px-4 py-8 md:px-6">
        <Notice title="This variant has no revisions yet">
          Commit a template through the API, or fork another variant.
        </Notice>
      </div>
    );
  }
  const template = getIn(revision.data, ["parameters", "agent"]);
  const base: EditorBase = {
    revisionId: revision.id,
    version: revision.version,
    author: revision.author,
    date: revision.date,
    message: revision.message,
    template: template === undefined ? {} : orderLikeSchema(template, validator.schema),
  };

  return (
    <EditorSession
      key={revision.id}
      agentId={agentId}
      variantId={variantId}
      view={view}
      base={base}
      options={options}
      harnesses={harnesses.data}
      validate={validator.validate}
      validatorError={validator.error}
      initialIssues={committed?.revisionId === revision.id ? committed.issues : []}
      justCommitted={committed?.revisionId === revision.id ? committed.text : null}
      onCommitted={onCommitted}
    />
  );
}
