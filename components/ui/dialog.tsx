"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";
import { focusRing } from "./focus-ring";
import { CloseIcon } from "./icons";
import { Notice } from "./notice";

export interface DialogProps {
  open: boolean;
  /** Called on Escape, the close button and a click on the backdrop. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons, right-aligned under the body. */
  footer?: ReactNode;
  /**
   * The answer to the footer's action (an error): drawn above the footer, outside the scrolling
   * body, so it is in view where the button was pressed however long the body is.
   */
  status?: ReactNode;
  /** "alertdialog" for confirmations that interrupt the user. */
  role?: "dialog" | "alertdialog";
  size?: "md" | "lg";
  className?: string;
}

/**
 * A modal on the native <dialog>: the browser gives us the focus trap, Escape, inertness of the
 * page behind and focus return. Content mounts only while open, so forms start fresh each time.
 * Mark the element that should take focus on open with `data-autofocus`.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  status,
  role = "dialog",
  size = "md",
  className,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React does not render `autofocus`, so the browser would focus the close button; aim better.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // Escape: let React state decide, so the dialog never closes behind the component's back.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={cn(
        // Never taller than the viewport: the title and footer stay put and the body scrolls, so
        // focusing a control low in a long body cannot leave the top cut off and unreachable.
        "m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] overflow-hidden rounded-xl border border-line bg-surface p-0 text-foreground shadow-2xl",
        "backdrop:bg-black/40 backdrop:backdrop-blur-[2px]",
        size === "lg" ? "max-w-lg" : "max-w-md",
        className,
      )}
    >
      {open && (
        <div className="flex max-h-[calc(100dvh-2rem)] flex-col">
          <div className="flex shrink-0 items-start justify-between gap-4 px-5 pt-5">
            <div className="flex flex-col gap-1">
              <h2 id={titleId} className="text-base font-semibold tracking-tight">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="text-sm text-muted">
                  {description}
                </p>
              )}
            </div>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className={cn("-m-1 rounded-md p-1 text-muted hover:bg-surface-muted hover:text-foreground", focusRing)}
            >
              <CloseIcon />
            </button>
          </div>
          {children && <div className="min-h-0 flex-1 overflow-y-auto px-5 pt-4 pb-1">{children}</div>}
          {status && <div className="shrink-0 px-5 pt-3">{status}</div>}
          {footer && (
            <div className="mt-5 flex shrink-0 justify-end gap-2 border-t border-line bg-surface-muted/60 px-5 py-3">
              {footer}
            </div>
          )}
          {!footer && <div className="h-5 shrink-0" />}
        </div>
      )}
    </dialog>
  );
}

/**
 * The footer of a dialog around a form: Cancel, and the submit button of the form `formId`. Most
 * dialogs take it with `FormDialog`; a dialog whose form is a child of its own (its state starting
 * afresh each time the dialog opens) puts it in `footer` itself.
 */
export function FormDialogFooter({
  formId,
  busy,
  onCancel,
  submitLabel,
  disabled,
}: {
  formId: string;
  busy: boolean;
  onCancel: () => void;
  submitLabel: ReactNode;
  disabled?: boolean;
}) {
  return (
    <>
      <Button onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" form={formId} variant="primary" loading={busy} disabled={disabled}>
        {submitLabel}
      </Button>
    </>
  );
}

/**
 * A dialog around one form: its fields, Cancel and the submit button, and the submit's failure
 * (`error`, titled `errorTitle`) above the buttons, where the press was. It does not close while
 * `busy`: a save in flight is never left without the view that shows its outcome.
 */
export function FormDialog({
  open = true,
  onClose,
  onSubmit,
  submitLabel,
  busy,
  disabled,
  error,
  errorTitle,
  noValidate,
  formClassName,
  children,
  ...dialog
}: Omit<DialogProps, "open" | "footer" | "status"> & {
  /** Left out: open (a dialog its caller mounts only while it is shown). */
  open?: boolean;
  onSubmit: () => void;
  submitLabel: ReactNode;
  busy: boolean;
  disabled?: boolean;
  error?: { message: string } | null | false;
  errorTitle: string;
  /** The form checks its fields itself instead of the browser's required/pattern bubbles. */
  noValidate?: boolean;
  /** The form's classes, in place of a column with gap-4. */
  formClassName?: string;
}) {
  const formId = useId();
  const close = () => {
    if (!busy) onClose();
  };
  return (
    <Dialog
      {...dialog}
      open={open}
      onClose={close}
      footer={
        <FormDialogFooter formId={formId} busy={busy} onCancel={close} submitLabel={submitLabel} disabled={disabled} />
      }
      status={
        error && (
          <Notice tone="danger" title={errorTitle}>
            <span className="wrap-anywhere">{error.message}</span>
          </Notice>
        )
      }
    >
      <form
        id={formId}
        className={formClassName ?? "flex flex-col gap-4"}
        noValidate={noValidate}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </Dialog>
  );
}
