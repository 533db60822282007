import { cn } from "@/components/ui";

interface Message {
  role?: string;
  content?: unknown;
  tool_name?: string;
  input?: unknown;
  is_error?: boolean;
}

const pretty = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value, null, 2));

/** The text of a message's content: a string, or the text parts of a parts array. */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const texts = content
      .map((p) =>
        p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string"
          ? (p as { text: string }).text
          : undefined,
      )
      .filter((t): t is string => t !== undefined);
    return texts.length ? texts.join("\n") : undefined;
  }
  return undefined;
}

const block =
  "max-h-80 overflow-auto rounded-md border border-line bg-surface px-3 py-2 text-sm break-words whitespace-pre-wrap";

/**
 * What the application answered: a prompt's text, or an agent's messages (its text, and each tool
 * call with its result, compact); anything else as JSON. Long content scrolls inside its box.
 */
export function OutputView({ value }: { value: unknown }) {
  if (value === undefined || value === null) return <p className="text-sm text-muted">No output.</p>;
  if (Array.isArray(value) && value.every((m) => m && typeof m === "object" && "role" in m)) {
    const messages = value as Message[];
    return (
      <div className="flex flex-col gap-2">
        {messages.map((m, i) =>
          m.role === "tool" ? (
            <details key={i} className="rounded-md border border-line bg-surface-muted/50 px-3 py-1.5 text-xs">
              <summary className={cn("cursor-pointer font-mono", m.is_error && "text-danger")}>
                tool {m.tool_name ?? ""} {m.is_error ? "failed" : "returned"}
              </summary>
              <pre className="mt-1.5 max-h-60 overflow-auto break-words whitespace-pre-wrap">{pretty(m.content)}</pre>
            </details>
          ) : (
            <div key={i} className={block}>
              {textOf(m.content) ?? pretty(m.content)}
            </div>
          ),
        )}
      </div>
    );
  }
  return <div className={cn(block, typeof value !== "string" && "font-mono text-xs")}>{pretty(value)}</div>;
}

/** A testcase's columns as a definition list; long values wrap and scroll. */
export function InputsView({ value }: { value: unknown }) {
  if (!value || typeof value !== "object" || Array.isArray(value))
    return <div className={cn(block, "font-mono text-xs")}>{pretty(value ?? null)}</div>;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <p className="text-sm text-muted">No inputs.</p>;
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[minmax(6rem,auto)_1fr]">
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-mono text-xs text-muted sm:pt-0.5">{k}</dt>
          <dd className="max-h-48 min-w-0 overflow-auto break-words whitespace-pre-wrap">{pretty(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
