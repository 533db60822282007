import { CopyButton } from "@/components/ui";

/** A URL to paste, with its label and a copy button. */
export function ConnectField({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium text-muted">
        {label}
        {note ? ` ${note}` : ""}
      </span>
      <div className="flex items-center gap-2">
        <code className="flex-1 overflow-x-auto rounded bg-surface-muted px-2 py-1 text-xs" data-testid="connect-url">
          {value}
        </code>
        <CopyButton value={value} size="sm" />
      </div>
    </div>
  );
}
