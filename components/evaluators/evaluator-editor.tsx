"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { MemberButton } from "@/components/shell/member-button";
import { useTRPC } from "@/components/trpc";
import { Card, InlineCode, Notice, TextField } from "@/components/ui";
import { evaluatorPath } from "./evaluator-paths";
import { SchemaForm } from "./schema-form";
import { withoutEmpty } from "./schema-fields";
import { TryPanel } from "./try-panel";
import type { EvaluatorTemplate, Parameters, SchemaNode } from "./types";

/**
 * An evaluator's form: its name (when creating), the template's parameters, and a try-out on a
 * sample beside them. Saving creates the evaluator (revision 1) or commits a new revision.
 */
export function EvaluatorEditor({
  template,
  initialName,
  initialParameters,
  target,
}: {
  template: EvaluatorTemplate;
  initialName: string;
  initialParameters: Parameters;
  /** `create` a new evaluator, or commit to this variant. */
  target: { kind: "create" } | { kind: "commit"; variantId: string; evaluatorId: string };
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const [name, setName] = useState(initialName);
  const [message, setMessage] = useState("");
  const [parameters, setParameters] = useState<Parameters>(initialParameters);
  const data = { uri: template.data.uri, parameters: withoutEmpty(parameters) };
  const create = useMutation(
    trpc.evaluators.create.mutationOptions({
      onSuccess: async (created) => {
        await queryClient.invalidateQueries({ queryKey: trpc.evaluators.list.queryKey() });
        router.push(evaluatorPath(created.evaluator.id));
      },
    }),
  );
  const commit = useMutation(
    trpc.evaluators.commit.mutationOptions({
      onSuccess: async () => {
        setMessage("");
        await queryClient.invalidateQueries({ queryKey: trpc.evaluators.pathKey() });
      },
    }),
  );
  const saving = create.isPending || commit.isPending;
  const error = create.error ?? commit.error;
  const save = () =>
    target.kind === "create"
      ? create.mutate({ name: name.trim(), data, message: message.trim() || undefined })
      : commit.mutate({ variantId: target.variantId, data, message: message.trim() || undefined });

  return (
    <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card
        title={template.name}
        description={<InlineCode text={template.description} />}
        labelledBy="evaluator-form-title"
      >
        <form
          className="flex flex-col gap-5 p-5"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          {target.kind === "create" && (
            <TextField label="Name" value={name} required maxLength={256} onChange={(e) => setName(e.target.value)} />
          )}
          <SchemaForm
            schema={template.data.schemas.parameters as SchemaNode}
            parameters={parameters}
            onChange={setParameters}
          />
          <TextField
            label="Commit message"
            hint="Every save is a revision: say what changed."
            value={message}
            maxLength={10_000}
            onChange={(e) => setMessage(e.target.value)}
          />
          {error && (
            <Notice tone="danger" title="Not saved">
              <span className="wrap-anywhere">{error.message}</span>
            </Notice>
          )}
          {commit.isSuccess && <Notice tone="success">Committed a new revision.</Notice>}
          <div className="flex flex-wrap gap-2">
            <MemberButton
              type="submit"
              variant="primary"
              loading={saving}
              disabled={target.kind === "create" && !name.trim()}
              viewerTitle="Viewers cannot save evaluators"
            >
              {target.kind === "create" ? "Create evaluator" : "Commit revision"}
            </MemberButton>
          </div>
        </form>
      </Card>
      <Card>
        <div className="p-5">
          <TryPanel data={data} disabled={!canEdit} />
        </div>
      </Card>
    </div>
  );
}
