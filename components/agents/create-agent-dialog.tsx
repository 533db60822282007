"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/trpc";
import { FormDialog, TextField } from "@/components/ui";
import { editorPath } from "./agent-paths";
import { slugProblem, suggestSlug } from "./slug-suggestion";

/** Name and optional slug; the agent starts from the default template (version 1) and opens in the editor. */
export function CreateAgentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [touched, setTouched] = useState(false);
  const create = useMutation(
    trpc.agents.create.mutationOptions({
      onSuccess: async (created) => {
        await queryClient.invalidateQueries({ queryKey: trpc.agents.list.pathKey() });
        // The editor opening on version 1 is the confirmation; a toast would sit on its commit bar.
        router.push(editorPath(created.agent.id, created.variant.id));
        reset();
        onClose();
      },
    }),
  );

  function reset() {
    setName("");
    setSlug("");
    setTouched(false);
    create.reset();
  }

  function close() {
    if (create.isPending) return;
    reset();
    onClose();
  }

  const suggestion = suggestSlug(name);
  // A taken slug comes back as a field error that names a free one.
  const slugTaken =
    create.error?.data?.app?.code === "slug_taken"
      ? create.error.data.app.errors?.find((e) => e.path === "slug")?.message
      : undefined;
  const problem = slugProblem(slug.trim()) ?? (slugTaken && slug.trim() === create.variables?.slug ? slugTaken : null);
  const nameMissing = touched && name.trim() === "";

  function submit() {
    setTouched(true);
    if (name.trim() === "" || problem) return;
    create.mutate({ name: name.trim(), slug: slug.trim() || undefined });
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      title="New agent"
      description="It starts from the default template (a short greeting agent), committed as version 1."
      onSubmit={submit}
      submitLabel="Create agent"
      busy={create.isPending}
      error={!slugTaken && create.error}
      errorTitle="Could not create the agent"
      noValidate
    >
      <TextField
        label="Name"
        name="name"
        placeholder="e.g. Support triage"
        maxLength={256}
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={nameMissing ? "Give the agent a name" : undefined}
        required
        data-autofocus
      />
      <TextField
        label={
          <>
            Slug <span className="font-normal text-muted">(optional)</span>
          </>
        }
        name="slug"
        placeholder={suggestion || "derived from the name"}
        maxLength={128}
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
        value={slug}
        onChange={(event) => setSlug(event.target.value)}
        hint={problem ? undefined : "How the API and other agents refer to it. Leave empty to derive it from the name."}
        error={problem ?? undefined}
      />
    </FormDialog>
  );
}
