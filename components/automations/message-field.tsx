import type { ReactNode } from "react";

/** The message an automation sends its agent, with what its `{{ … }}` placeholders are filled from. */
export function MessageField({
  value,
  onChange,
  hint,
}: {
  value: string;
  onChange: (message: string) => void;
  hint: ReactNode;
}) {
  return (
    <label className="flex flex-col gap-1.5 text-sm font-medium">
      Message
      <textarea
        className="min-h-20 rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm font-normal outline-none focus:border-accent focus:ring-3 focus:ring-accent/20"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
      />
      <span className="text-xs font-normal text-muted">{hint}</span>
    </label>
  );
}
