"use client";

import { useState, type FormEvent } from "react";
import { Button, Input, PlusIcon, cn, focusRing } from "@/components/ui";
import { SelectInput } from "./select-input";

type Kind = "builtin" | "client" | "code";

const KINDS: Array<{ kind: Kind; label: string; hint: string }> = [
  { kind: "builtin", label: "Built-in", hint: "A tool the harness provides: files and shell in the sandbox." },
  { kind: "client", label: "Client", hint: "Fulfilled by the app that calls the agent: the call comes back to it." },
  { kind: "code", label: "Code", hint: "A script the runner executes in the sandbox." },
];

/** Adds one tool entry: a missing built-in in one click, or a client/code tool with its few required fields. */
export function AddToolPanel({
  builtins,
  present,
  runtimes,
  onAdd,
  onClose,
}: {
  builtins: Array<{ name: string; read_only: boolean }>;
  present: ReadonlySet<string>;
  runtimes: string[];
  onAdd: (entry: Record<string, unknown>) => void;
  onClose: () => void;
}) {
  const [kind, setKind] = useState<Kind>(builtins.some((b) => !present.has(b.name)) ? "builtin" : "client");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [runtime, setRuntime] = useState(runtimes[0] ?? "python");
  const [script, setScript] = useState("");
  const missing = builtins.filter((b) => !present.has(b.name));
  const ready = name.trim() !== "" && (kind !== "code" || script.trim() !== "");

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    const entry: Record<string, unknown> = { type: kind, name: name.trim() };
    if (description.trim()) entry.description = description.trim();
    if (kind === "code") Object.assign(entry, { runtime, script });
    onAdd(entry);
    setName("");
    setDescription("");
    setScript("");
  }

  return (
    <div
      role="group"
      aria-label="Add a tool"
      className="flex flex-col gap-4 rounded-lg border border-dashed border-line-strong bg-surface-muted/40 p-4"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="flex items-center justify-between gap-3">
        <div
          role="radiogroup"
          aria-label="Kind of tool"
          className="inline-flex rounded-md border border-line bg-surface p-0.5"
        >
          {KINDS.map((k) => (
            <button
              key={k.kind}
              type="button"
              role="radio"
              aria-checked={kind === k.kind}
              onClick={() => setKind(k.kind)}
              className={cn(
                "h-6 rounded px-2.5 text-xs font-medium transition-colors",
                kind === k.kind ? "bg-accent-soft text-accent" : "text-muted hover:text-foreground",
                focusRing,
              )}
            >
              {k.label}
            </button>
          ))}
        </div>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Done
        </Button>
      </div>
      <p className="-mt-2 text-xs text-muted">{KINDS.find((k) => k.kind === kind)?.hint}</p>

      {kind === "builtin" ? (
        missing.length === 0 ? (
          <p className="text-sm text-muted">
            {builtins.length === 0 ? "This harness has no built-in tools." : "Every built-in tool is already added."}
          </p>
        ) : (
          <div className="flex flex-wrap gap-2">
            {missing.map((b) => (
              <Button
                key={b.name}
                size="sm"
                onClick={() => onAdd({ type: "builtin", name: b.name })}
                aria-label={`Add built-in ${b.name}`}
              >
                <PlusIcon className="size-3" />
                <span className="font-mono">{b.name}</span>
                {b.read_only && <span className="text-muted">read-only</span>}
              </Button>
            ))}
          </div>
        )
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-3">
          <div className="grid gap-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
            <Input
              aria-label="New tool name"
              placeholder="tool_name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              spellCheck={false}
              autoComplete="off"
              className="font-mono"
              autoFocus
            />
            <Input
              aria-label="New tool description"
              placeholder="What it does (optional)"
              value={description}
              onChange={(event) => setDescription(event.target.value)}
            />
          </div>
          {kind === "code" && (
            <div className="flex flex-col gap-2">
              <div className="flex items-center gap-2">
                <label htmlFor="new-tool-runtime" className="text-xs text-muted">
                  Runtime
                </label>
                <SelectInput
                  id="new-tool-runtime"
                  value={runtime}
                  onChange={(event) => setRuntime(event.target.value)}
                  className="h-7! w-28 text-xs!"
                >
                  {runtimes.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </SelectInput>
              </div>
              <textarea
                aria-label="New tool script"
                value={script}
                onChange={(event) => setScript(event.target.value)}
                rows={4}
                spellCheck={false}
                placeholder={runtime === "node" ? "console.log('hello')" : "print('hello')"}
                className="w-full resize-y rounded-md border border-line bg-surface px-3 py-2 font-mono text-xs leading-relaxed outline-none focus:border-accent focus:ring-3 focus:ring-accent/20"
              />
            </div>
          )}
          <div>
            <Button type="submit" size="sm" variant="primary" disabled={!ready}>
              <PlusIcon className="size-3" />
              Add {kind} tool
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
