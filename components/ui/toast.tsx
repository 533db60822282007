"use client";

import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
  type RefObject,
} from "react";
import { cn } from "./cn";
import { focusRing } from "./focus-ring";
import { AlertIcon, CheckIcon, CloseIcon } from "./icons";

export interface ToastInput {
  title: string;
  description?: string;
  tone?: "success" | "danger";
}

interface Toast extends ToastInput {
  id: number;
}

const ToastContext = createContext<((toast: ToastInput) => void) | null>(null);

const DISMISS_AFTER_MS = 4_000;

/** Short confirmations after an action ("Key revoked"), read out by screen readers. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback((toast: ToastInput) => {
    setToasts((all) => [...all.slice(-2), { ...toast, id: Date.now() + Math.random() }]);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {/*
        Bottom right, standing above a sticky action bar (the editor's Commit) by the height it
        reserves: at the top they covered the page header's controls (the variant picker).
      */}
      <div
        aria-live="polite"
        aria-label="Notifications"
        data-testid="toasts"
        className="pointer-events-none fixed right-4 bottom-[calc(1rem+var(--toast-clearance,0px))] z-50 flex w-80 max-w-[calc(100%-2rem)] flex-col gap-2"
      >
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={() => dismiss(toast.id)} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  // Kept while the pointer rests on it, so it can be read to the end.
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(onDismiss, DISMISS_AFTER_MS);
    return () => clearTimeout(timer);
  }, [onDismiss, held]);
  const Icon = toast.tone === "danger" ? AlertIcon : CheckIcon;
  return (
    <div
      role="status"
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      className="pointer-events-auto flex items-start gap-3 rounded-lg border border-line bg-surface px-3.5 py-3 text-sm shadow-lg"
    >
      <Icon className={cn("mt-0.5 size-4 shrink-0", toast.tone === "danger" ? "text-danger" : "text-success")} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <p className="font-medium">{toast.title}</p>
        {toast.description && <p className="text-muted">{toast.description}</p>}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss notification"
        className={cn("-m-1 rounded p-1 text-muted hover:text-foreground", focusRing)}
      >
        <CloseIcon className="size-3.5" />
      </button>
    </div>
  );
}

/** A bar stuck to the bottom of the window keeps toasts above it while it is shown. */
export function useToastClearance(bar: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty("--toast-clearance", `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--toast-clearance");
    };
  }, [bar]);
}

export function useToast(): (toast: ToastInput) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error("useToast must be used inside <ToastProvider>");
  return show;
}
