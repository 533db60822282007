"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { useHotkeys } from "@/components/ui";
import { isAnnotated, outputPending, type ReviewItem, type ReviewSessionData, type ReviewStep } from "./types";

export type Verdict = { score: number } | { success: boolean };

/**
 * The state of one review session: which case and step are shown, the comment being typed, and
 * the save. A verdict saves at once and, once every step of the case is answered, moves to the
 * next case. Keys: j / → next, k / ← previous, 1–5 score, p pass, f fail, c comment.
 */
export function useReviewSession(queueId: string, data: ReviewSessionData) {
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
    // A verdict on an output still on its way would judge nothing (the server refuses it too).
    if (!item || !canEdit || outputPending(item)) return;
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

  return {
    canEdit,
    index,
    item,
    done,
    activeStep,
    setActiveStep,
    comment,
    setComment,
    commentRef,
    annotate,
    go,
    record,
    saveComment,
  };
}

export type ReviewSessionState = ReturnType<typeof useReviewSession>;
