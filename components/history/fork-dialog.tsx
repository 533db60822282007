"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { slugProblem, suggestSlug as slugify } from "@/components/agents/slug-suggestion";
import { variantLabel } from "@/components/agents/variant-label";
import { useTRPC } from "@/components/trpc";
import { FormDialog, TextField, useToast } from "@/components/ui";
import { agentPaths } from "./paths";
import { versionLabel, type AgentRevision } from "./types";

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

  function submit() {
    if (!revision || slugError) return;
    fork.mutate({ revisionId: revision.id, name: name.trim() || undefined, slug: effectiveSlug || undefined });
  }

  return (
    <FormDialog
      open={revision !== null}
      onClose={close}
      title={revision ? `Fork a variant from ${versionLabel(revision)}` : "Fork a variant"}
      description="A variant is a branch: it starts with this revision's template and gets its own history. The original variant is not touched."
      onSubmit={submit}
      submitLabel="Fork and open"
      busy={fork.isPending}
      disabled={Boolean(slugError)}
      error={!serverFieldError && fork.error}
      errorTitle="Could not fork"
    >
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
    </FormDialog>
  );
}
