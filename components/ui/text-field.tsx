"use client";

import { useId, type ComponentProps, type ReactNode } from "react";
import { Input } from "./input";

export interface TextFieldProps extends Omit<ComponentProps<"input">, "id"> {
  label: ReactNode;
  /** Shown under the input and linked to it, so screen readers read it too. */
  hint?: ReactNode;
  error?: ReactNode;
}

/** A labelled input with its hint and error wired up through aria attributes. */
export function TextField({ label, hint, error, ...props }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-foreground">
        {label}
      </label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        {...props}
      />
      {hint && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
