import { useId } from "react";
import { Notice, Textarea } from "@/components/ui";
import { StepVerdict } from "./step-verdict";
import { outputPending, type ReviewItem, type ReviewStep } from "./types";
import type { ReviewSessionState } from "./use-review-session";

/** "Your review": a verdict per step, the comment (Ctrl+Enter saves it, Esc leaves it) and the save's state. */
export function ReviewForm({
  item,
  steps,
  session,
}: {
  item: ReviewItem;
  steps: ReviewStep[];
  session: ReviewSessionState;
}) {
  const { canEdit, activeStep, setActiveStep, comment, setComment, commentRef, annotate, record, saveComment } =
    session;
  const commentId = useId();
  return (
    <section
      aria-label="Your review"
      className="flex flex-col gap-4 rounded-lg border border-line bg-surface-muted/40 p-3 sm:p-4"
    >
      {!canEdit && <Notice>Viewers can read the queue; members and owners review.</Notice>}
      {steps.map((s, i) => (
        <StepVerdict
          key={s.key}
          step={s}
          active={i === activeStep && steps.length > 1}
          saved={item.annotations[s.key]}
          disabled={!canEdit || annotate.isPending || outputPending(item)}
          onVerdict={(v) => {
            setActiveStep(i);
            record(s, v);
          }}
        />
      ))}
      <div className="flex flex-col gap-1.5">
        <label htmlFor={commentId} className="text-sm font-medium">
          Comment <span className="font-normal text-muted">(optional, saved with the score)</span>
        </label>
        <Textarea
          id={commentId}
          ref={commentRef}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          rows={2}
          maxLength={10_000}
          disabled={!canEdit}
          aria-keyshortcuts="c"
          placeholder="Why this score?"
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              e.currentTarget.blur();
            }
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              saveComment();
            }
          }}
        />
      </div>
      <p className="min-h-5 text-xs" aria-live="polite">
        {annotate.isPending ? (
          <span className="text-muted">Saving…</span>
        ) : annotate.isError ? (
          <span className="text-danger">{annotate.error.message}</span>
        ) : annotate.isSuccess ? (
          <span className="text-success">Saved</span>
        ) : null}
      </p>
    </section>
  );
}
