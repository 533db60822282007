"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { slugProblem, suggestSlug as slugify } from "@/components/agents/slug-suggestion";
import { variantLabel } from "@/components/agents/variant-label";
import { useTRPC } from "@/components/trpc";
import { Dialog, FormDialogFooter, Notice, TextField, useToast } from "@/components/ui";
import { agentPaths } from "./paths";
import { versionLabel, type AgentRevision } from "./types";

const FORM_ID = "fork-variant-form";

/** Asks for the new variant's name and slug, forks from the revision, and opens the new variant's editor. */
export function ForkDialog({
  agentId,
  revision,
  onClose,
}: {
  agentId: string;
  revision: Pick<AgentRevision, "id" | "version"> | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const toast = useToast();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugTouched, setSlugTouched] = useState(false);
  const fork = useMutation(
    trpc.agents.fork.mutationOptions({
      onSuccess: async ({ variant }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.agents.pathKey() });
        toast({
          title: `Forked “${variantLabel(variant)}”`,
          description: revision ? `Starts from ${versionLabel(revision)}.` : undefined,
        });
        router.push(agentPaths.editor(agentId, variant.id));
        dismiss();
      },
    }),
  );

  const effectiveSlug = slugTouched ? slug : slugify(name);
  const slugError = slugProblem(effectiveSlug) ?? undefined;
  const serverFieldError = fork.error?.data?.app?.errors?.find((e) => e.path === "slug")?.message;

  function dismiss() {
    fork.reset();
    setName("");
    setSlug("");
    setSlugTouched(false);
    onClose();
  }

  function close() {
    if (!fork.isPending) dismiss();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!revision || slugError) return;
    fork.mutate({ revisionId: revision.id, name: name.trim() || undefined, slug: effectiveSlug || undefined });
  }

  return (
    <Dialog
      open={revision !== null}
      onClose={close}
      title={revision ? `Fork a variant from ${versionLabel(revision)}` : "Fork a variant"}
      description="A variant is a branch: it starts with this revision's template and gets its own history. The original variant is not touched."
      footer={
        <FormDialogFooter
          formId={FORM_ID}
          busy={fork.isPending}
          onCancel={close}
          submitLabel="Fork and open"
          disabled={Boolean(slugError)}
        />
      }
    >
      <form id={FORM_ID} onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Name"
          name="name"
          placeholder="e.g. Shorter answers"
          maxLength={256}
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          hint="Optional. How the variant appears in the variant switcher."
          data-autofocus
        />
        <TextField
          label="Slug"
          name="slug"
          placeholder={slugify(name) || "generated when empty"}
          maxLength={128}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          value={effectiveSlug}
          onChange={(e) => {
            setSlugTouched(true);
            setSlug(e.target.value);
          }}
          hint="Unique within this agent; used in references and environment keys."
          error={slugError ?? serverFieldError}
        />
        {fork.error && !serverFieldError && (
          <Notice tone="danger" title="Could not fork">
            {fork.error.message}
          </Notice>
        )}
      </form>
    </Dialog>
  );
}
