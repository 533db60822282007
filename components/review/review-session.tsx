"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useRef, useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, EmptyState, Kbd, Notice, Skeleton, cn, useHotkeys } from "@/components/ui";
import { InputsView, OutputView } from "./output-view";
import { ReviewIcon } from "./review-icon";
import { isAnnotated, type ReviewItem, type ReviewSessionData, type ReviewStep } from "./types";

type Verdict = { score: number } | { success: boolean };

/**
 * One person going through their share of a queue, one case at a time. Keys: j / → next,
 * k / ← previous, 1–5 score, p pass, f fail, c comment (Ctrl+Enter saves it, Esc leaves it).
 * A verdict saves at once and, once every step of the case is answered, moves to the next case.
 */
export function ReviewSession({ queueId }: { queueId: string }) {
  const trpc = useTRPC();
  const session = useQuery(trpc.review.items.queryOptions({ queueId }));

  return session.isPending ? (
    <div role="status" aria-label="Loading the queue" className="flex flex-col gap-4">
      <Skeleton className="h-8 w-72" />
      <Skeleton className="h-96 w-full rounded-xl" />
    </div>
  ) : session.isError ? (
    <Notice tone="danger" title="Could not open this queue">
      {session.error.message}{" "}
      <Link href="/review" className="text-accent hover:underline">
        Back to your queues
      </Link>
    </Notice>
  ) : (
    <Session queueId={queueId} data={session.data} />
  );
}

function Session({ queueId, data }: { queueId: string; data: ReviewSessionData }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const { items, steps } = data;
  const [index, setIndex] = useState(() =>
    Math.max(
      0,
      items.findIndex((item) => !isAnnotated(item, steps)),
    ),
  );
  const item: ReviewItem | undefined = items[index];
  const [activeStep, setActiveStep] = useState(0);
  const [comment, setComment] = useState("");
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const commentId = useId();
  const done = items.filter((i) => isAnnotated(i, steps)).length;

  // Each case starts on its first unanswered step, with its saved comment: set while rendering a
  // case other than the last one shown, so a save's answer (the same case) resets nothing typed.
  const [shownCase, setShownCase] = useState<string | undefined>(undefined);
  if (item && item.scenarioId !== shownCase) {
    setShownCase(item.scenarioId);
    const firstOpen = steps.findIndex((s) => !item.annotations[s.key]);
    setActiveStep(firstOpen < 0 ? 0 : firstOpen);
    setComment(steps.map((s) => item.annotations[s.key]?.comment).find(Boolean) ?? "");
  }

  const annotate = useMutation(
    trpc.review.annotate.mutationOptions({
      onSuccess: (outputs, input) => {
        queryClient.setQueryData(trpc.review.items.queryKey({ queueId }), (old) =>
          old
            ? {
                ...old,
                items: old.items.map((i) =>
                  i.scenarioId === input.scenarioId
                    ? { ...i, annotations: { ...i.annotations, [input.stepKey]: outputs } }
                    : i,
                ),
              }
            : old,
        );
        void queryClient.invalidateQueries({ queryKey: trpc.review.queues.queryKey() });
      },
    }),
  );

  const go = (to: number) => {
    if (to < 0 || to >= items.length) return;
    annotate.reset();
    setIndex(to);
  };

  function record(step: ReviewStep, verdict: Verdict) {
    if (!item || !canEdit) return;
    const answered = { ...item.annotations, [step.key]: verdict };
    annotate.mutate(
      { queueId, scenarioId: item.scenarioId, stepKey: step.key, ...verdict, comment: comment || undefined },
      {
        onSuccess: () => {
          const next = steps.findIndex((s) => !answered[s.key]);
          if (next >= 0) setActiveStep(next);
          else if (index < items.length - 1) go(index + 1);
        },
      },
    );
  }

  function saveComment() {
    if (!item) return;
    const step = steps[activeStep];
    const saved = item.annotations[step.key];
    if (!saved) return;
    const verdict: Verdict = saved.score !== undefined ? { score: saved.score } : { success: Boolean(saved.success) };
    annotate.mutate({ queueId, scenarioId: item.scenarioId, stepKey: step.key, ...verdict, comment });
  }

  const step = steps[activeStep];
  const scoreKeys = Object.fromEntries(
    [1, 2, 3, 4, 5].map((n) => [String(n), () => step?.scale === "score" && record(step, { score: n })]),
  );
  useHotkeys({
    j: () => go(index + 1),
    ArrowRight: () => go(index + 1),
    k: () => go(index - 1),
    ArrowLeft: () => go(index - 1),
    ...scoreKeys,
    p: () => step?.scale === "pass_fail" && record(step, { success: true }),
    f: () => step?.scale === "pass_fail" && record(step, { success: false }),
    c: () => commentRef.current?.focus(),
  });

  if (items.length === 0)
    return (
      <EmptyState
        icon={<ReviewIcon />}
        title="No cases for you in this queue"
        description="Its cases are assigned to other people, or the evaluation has not produced them yet."
        action={
          <Link href="/review" className="text-sm text-accent hover:underline">
            Back to your queues
          </Link>
        }
      />
    );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="flex min-w-0 flex-wrap items-baseline gap-x-2 text-sm">
            <span className="truncate font-medium">{data.queue.name ?? "Unnamed evaluation"}</span>
            <span className="text-muted" data-testid="review-progress">
              {done} of {items.length} reviewed
            </span>
          </span>
          <span className="flex items-center gap-2">
            <Button size="sm" onClick={() => go(index - 1)} disabled={index === 0} aria-keyshortcuts="k">
              Previous <Kbd aria-hidden>k</Kbd>
            </Button>
            <Button size="sm" onClick={() => go(index + 1)} disabled={index >= items.length - 1} aria-keyshortcuts="j">
              Next <Kbd aria-hidden>j</Kbd>
            </Button>
          </span>
        </div>
        <span
          className="h-1.5 w-full overflow-hidden rounded-full bg-surface-muted"
          role="progressbar"
          aria-label="Reviewed"
          aria-valuemin={0}
          aria-valuemax={items.length}
          aria-valuenow={done}
        >
          <span
            className="block h-full rounded-full bg-accent transition-[width]"
            style={{ width: `${(done / items.length) * 100}%` }}
          />
        </span>
      </div>

      <div className="grid gap-4 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <nav aria-label="Cases" className="hidden lg:block">
          <ol className="flex max-h-[70vh] flex-col gap-0.5 overflow-y-auto rounded-xl border border-line bg-surface p-1.5 shadow-xs">
            {items.map((it, i) => (
              <li key={it.scenarioId}>
                <button
                  type="button"
                  onClick={() => go(i)}
                  aria-current={i === index ? "true" : undefined}
                  className={cn(
                    "flex w-full items-center gap-2 rounded-md px-2.5 py-1.5 text-left text-sm",
                    i === index ? "bg-accent-soft text-accent" : "hover:bg-surface-muted",
                  )}
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      "size-2 shrink-0 rounded-full",
                      isAnnotated(it, steps) ? "bg-success" : "bg-line-strong",
                    )}
                  />
                  <span className="shrink-0 tabular-nums">Case {i + 1}</span>
                  <span className="min-w-0 truncate text-xs text-muted">{summaryOf(it.inputs)}</span>
                  <span className="sr-only">{isAnnotated(it, steps) ? "(reviewed)" : "(to review)"}</span>
                </button>
              </li>
            ))}
          </ol>
        </nav>

        {item && (
          <article
            aria-labelledby="review-case-title"
            className="flex min-w-0 flex-col gap-5 rounded-xl border border-line bg-surface p-4 shadow-xs sm:p-5"
            data-testid="review-case"
          >
            <header className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="review-case-title" className="text-base font-semibold">
                Case {index + 1} of {items.length}
              </h2>
              {isAnnotated(item, steps) ? (
                <Badge tone="success" dot>
                  reviewed
                </Badge>
              ) : (
                <Badge dot>to review</Badge>
              )}
            </header>

            <section className="flex flex-col gap-2">
              <h3 className="text-xs font-medium tracking-wide text-muted uppercase">Inputs</h3>
              <InputsView value={item.inputs} />
            </section>
            <section className="flex flex-col gap-2">
              <h3 className="text-xs font-medium tracking-wide text-muted uppercase">
                Output
                {item.outputStatus && item.outputStatus !== "success" && (
                  <Badge tone="danger" className="ml-2 normal-case">
                    {item.outputStatus}
                  </Badge>
                )}
              </h3>
              <OutputView value={item.output} />
            </section>
            {item.scores.length > 0 && (
              <section className="flex flex-col gap-2">
                <h3 className="text-xs font-medium tracking-wide text-muted uppercase">Automatic scores</h3>
                <ul className="flex flex-wrap gap-2">
                  {item.scores.map((s) => (
                    <li key={s.name} className="rounded-md border border-line px-2 py-1 text-xs">
                      <span className="font-mono">{s.name}</span>{" "}
                      <span className="font-mono font-semibold tabular-nums">
                        {s.score === undefined ? "—" : Math.round(s.score * 100) / 100}
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            )}

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
                  disabled={!canEdit || annotate.isPending}
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
                <textarea
                  id={commentId}
                  ref={commentRef}
                  value={comment}
                  onChange={(e) => setComment(e.target.value)}
                  rows={2}
                  maxLength={10_000}
                  disabled={!canEdit}
                  aria-keyshortcuts="c"
                  placeholder="Why this score?"
                  className="w-full resize-y rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm shadow-xs outline-none placeholder:text-muted/70 focus:border-accent focus:ring-3 focus:ring-accent/20"
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

            <Shortcuts scales={new Set(steps.map((s) => s.scale))} />
          </article>
        )}
      </div>
    </div>
  );
}

function StepVerdict({
  step,
  active,
  saved,
  disabled,
  onVerdict,
}: {
  step: ReviewStep;
  active: boolean;
  saved?: { score?: number; success?: boolean };
  disabled: boolean;
  onVerdict: (v: Verdict) => void;
}) {
  const choice = (label: string, pressed: boolean, onClick: () => void, key: string, tone?: "pass" | "fail") => (
    <button
      key={label}
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-pressed={pressed}
      aria-keyshortcuts={key}
      className={cn(
        "flex h-10 min-w-10 items-center justify-center gap-1.5 rounded-md border px-3 text-sm font-medium tabular-nums transition-colors disabled:opacity-60",
        pressed
          ? tone === "fail"
            ? "border-danger bg-danger-soft text-danger"
            : tone === "pass"
              ? "border-success bg-success-soft text-success"
              : "border-accent bg-accent text-accent-foreground"
          : "border-line bg-surface hover:border-line-strong",
      )}
    >
      {label}
      {tone && <Kbd aria-hidden>{key}</Kbd>}
    </button>
  );
  return (
    <fieldset
      className={cn(
        "flex flex-col gap-2",
        active && "rounded-md ring-2 ring-accent/40 ring-offset-4 ring-offset-surface-muted",
      )}
    >
      <legend className="mb-2 text-sm font-medium">
        <span className="font-mono">{step.name}</span>
        <span className="ml-1.5 font-normal text-muted">
          {step.scale === "score" ? "score 1 (poor) to 5 (excellent)" : "pass or fail"}
        </span>
      </legend>
      <div className="flex flex-wrap gap-2">
        {step.scale === "score"
          ? [1, 2, 3, 4, 5].map((n) => choice(String(n), saved?.score === n, () => onVerdict({ score: n }), String(n)))
          : [
              choice("Pass", saved?.success === true, () => onVerdict({ success: true }), "p", "pass"),
              choice("Fail", saved?.success === false, () => onVerdict({ success: false }), "f", "fail"),
            ]}
      </div>
    </fieldset>
  );
}

function Shortcuts({ scales }: { scales: Set<string> }) {
  const item = (keys: string[], what: string) => (
    <li className="flex items-center gap-1.5">
      {keys.map((k) => (
        <Kbd key={k}>{k}</Kbd>
      ))}
      <span>{what}</span>
    </li>
  );
  return (
    <ul aria-label="Keyboard shortcuts" className="hidden flex-wrap gap-x-4 gap-y-1.5 text-xs text-muted sm:flex">
      {item(["j", "→"], "next")}
      {item(["k", "←"], "previous")}
      {scales.has("score") && item(["1", "–", "5"], "score")}
      {scales.has("pass_fail") && item(["p", "f"], "pass / fail")}
      {item(["c"], "comment")}
      {item(["Ctrl", "Enter"], "save comment")}
    </ul>
  );
}

/** A line that tells cases apart in the list: the first input value. */
function summaryOf(inputs: unknown): string {
  if (!inputs || typeof inputs !== "object") return "";
  const first = Object.values(inputs as Record<string, unknown>)[0];
  return typeof first === "string" ? first : first === undefined ? "" : JSON.stringify(first);
}
