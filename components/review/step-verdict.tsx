import { Kbd, cn } from "@/components/ui";
import type { ReviewStep } from "./types";
import type { Verdict } from "./use-review-session";

/** One step's verdict buttons: 1–5 for a score, Pass / Fail otherwise; the saved one pressed. */
export function StepVerdict({
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
