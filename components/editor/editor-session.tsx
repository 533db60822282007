"use client";

import { useMutation } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { EditorView } from "@/components/agents";
import { editorPath } from "@/components/agents";
import { useTRPC } from "@/components/trpc";
import { Notice, cn } from "@/components/ui";
import { ChatPane } from "./chat-pane";
import { CommitBar } from "./commit-bar";
import { DiscardDialog } from "./discard-dialog";
import { EvaluateButton } from "@/components/evaluations/evaluate-button";
import { DraftNotice } from "./draft-notice";
import { EditorToolbar } from "./editor-toolbar";
import { JsonView } from "./json-view";
import { LeaveGuard } from "./leave-guard";
import type { TemplateOptions } from "./schema-options";
import { serverErrorsToIssues } from "./server-issues";
import { TemplateForm } from "./template-form";
import type { TemplateIssue } from "./template-issue";
import { templateVerdict } from "./template-verdict";
import type { CommitResult, EditorBase, HarnessInfo } from "./types";
import { useChatPane } from "./use-chat-pane";
import { useCommitShortcut } from "./use-commit-shortcut";
import type { TemplateValidator } from "./use-schema-validator";
import { useServerVerdict } from "./use-server-verdict";
import { useTemplateDraft } from "./use-template-draft";

export interface EditorSessionProps {
  agentId: string;
  variantId: string;
  view: EditorView;
  base: EditorBase;
  options: TemplateOptions;
  harnesses: HarnessInfo[];
  validate: TemplateValidator | null;
  validatorError: string | null;
  /** What the server said about `base` when this page committed it (warnings). */
  initialIssues: TemplateIssue[];
  /** Set when this page just committed `base`. */
  justCommitted: string | null;
  onCommitted: (result: CommitResult) => void;
}

/** One editing session over one base revision; a commit starts a new session on the new revision. */
export function EditorSession({
  agentId,
  variantId,
  view,
  base,
  options,
  harnesses,
  validate,
  validatorError,
  initialIssues,
  justCommitted,
  onCommitted,
}: EditorSessionProps) {
  const trpc = useTRPC();
  const draft = useTemplateDraft(variantId, base);
  const [initialVerdict] = useState(() =>
    initialIssues.length > 0 ? { forValue: base.template, issues: initialIssues } : null,
  );
  const server = useServerVerdict(draft.value, draft.parsed.ok, initialVerdict);
  const schemaIssues = useMemo(() => (validate ? validate(draft.value) : []), [validate, draft.value]);
  // The server has the last word once it has spoken about this exact template.
  const issues = server.issues ?? schemaIssues;
  const checking = validate === null && validatorError === null ? true : server.checking;
  // One verdict for the toolbar's badge, the problems panel and the Commit button.
  const verdict = useMemo(
    () => templateVerdict({ issues, syntaxError: draft.parsed.ok ? null : draft.parsed.error, checking }),
    [issues, draft.parsed, checking],
  );
  const [chatOpen, toggleChat] = useChatPane();
  const [discarding, setDiscarding] = useState(false);
  const commit = useMutation(trpc.agents.commit.mutationOptions());
  const [rejection, setRejection] = useState<{ forText: string; text: string } | null>(null);
  const outcome =
    rejection && rejection.forText === draft.text
      ? { tone: "danger" as const, text: rejection.text }
      : justCommitted && !draft.dirty
        ? { tone: "success" as const, text: justCommitted }
        : null;
  const blocked = verdict.commitBlocked;

  function submit() {
    if (!draft.dirty || blocked || commit.isPending) return;
    const value = draft.value;
    const message = draft.message.trim();
    commit.mutate(
      { variantId, template: value, message: message || undefined },
      {
        onSuccess: (result) => onCommitted(result),
        onError: (error) => {
          const fieldErrors = error.data?.app?.errors ?? [];
          if (fieldErrors.length > 0) server.record(value, serverErrorsToIssues(fieldErrors));
          setRejection({
            forText: draft.text,
            text:
              fieldErrors.length > 0
                ? `Commit rejected: ${fieldErrors.length} ${fieldErrors.length === 1 ? "problem" : "problems"}, marked above`
                : `Commit failed: ${error.message}`,
          });
        },
      },
    );
  }

  useCommitShortcut(submit);

  return (
    <div className="flex min-h-0 flex-1">
      <div className="flex min-w-0 flex-1 flex-col">
        <EditorToolbar
          agentId={agentId}
          variantId={variantId}
          view={view}
          base={base}
          dirty={draft.dirty}
          onDiscard={() => setDiscarding(true)}
          verdict={verdict}
          chatOpen={chatOpen}
          onToggleChat={toggleChat}
          actions={
            <EvaluateButton
              variantId={variantId}
              revisionId={base.revisionId}
              draft={draft.dirty && draft.parsed.ok ? { name: "Unsaved draft", agent: draft.value } : undefined}
            />
          }
        />
        <div className="flex-1 px-4 py-5 md:px-6">
          <div className={cn("mx-auto flex w-full flex-col gap-5", view === "form" ? "max-w-4xl" : "max-w-6xl")}>
            {validatorError && (
              <Notice tone="warning" title="Live validation is unavailable">
                {validatorError}. The server still checks the template when you commit.
              </Notice>
            )}
            {draft.restored && (
              <DraftNotice
                draft={draft.restored}
                base={base}
                onDismiss={draft.dismissRestored}
                onDiscard={() => setDiscarding(true)}
              />
            )}
            {view === "form" ? (
              <TemplateForm
                value={draft.value}
                onChange={draft.setValue}
                issues={issues}
                options={options}
                harnesses={harnesses}
                syntaxError={draft.parsed.ok ? null : draft.parsed.error}
                jsonHref={editorPath(agentId, variantId, "json")}
              />
            ) : (
              <JsonView
                text={draft.text}
                parsed={draft.parsed}
                onChange={draft.setText}
                issues={issues}
                verdict={verdict}
              />
            )}
          </div>
        </div>
        <CommitBar
          message={draft.message}
          onMessage={draft.setMessage}
          onCommit={submit}
          committing={commit.isPending}
          dirty={draft.dirty}
          blocked={blocked}
          problemsHref={`${editorPath(agentId, variantId, "json")}#template-problems`}
          nextVersion={Number(base.version) + 1}
          outcome={outcome}
        />
      </div>
      <ChatPane
        agentId={agentId}
        variantId={variantId}
        open={chatOpen}
        onToggle={toggleChat}
        template={draft.parsed.ok ? draft.value : null}
      />
      <LeaveGuard active={draft.dirty} />
      <DiscardDialog
        open={discarding}
        version={base.version}
        onCancel={() => setDiscarding(false)}
        onConfirm={() => {
          draft.discard();
          setDiscarding(false);
        }}
      />
    </div>
  );
}
