import { PROVIDERS, type ProviderId } from "@/shared/providers";

/** A stored model connection as the alias form offers it (from `connections.list`). */
export interface ConnectionChoice {
  slug: string;
  name: string;
  /** The provider id, or `custom` for a custom provider. */
  provider: string;
  /** A custom provider's models. */
  models: string[];
}

/** One row of the form: through what (`provider:<id>` or `connection:<slug>`), the model, an optional weight. */
export interface EntryDraft {
  through: string;
  model: string;
  weight: string;
}

export const blankEntry = (): EntryDraft => ({ through: "provider:openai", model: "", weight: "" });

/** The select's choices: each stored connection by its name, then each provider through the project's own key. */
export function throughOptions(connections: ConnectionChoice[]): { value: string; label: string }[] {
  return [
    ...connections.map((c) => ({
      value: `connection:${c.slug}`,
      label: `${c.name} · ${c.provider === "custom" ? "custom provider" : `${PROVIDERS[c.provider as ProviderId] ?? c.provider} connection`}`,
    })),
    ...Object.entries(PROVIDERS).map(([id, name]) => ({
      value: `provider:${id}`,
      label: `${name} · the project's ${name} key`,
    })),
  ];
}

/** The entries the API takes: a stored connection gives its provider (`custom` for a custom one) and its slug. */
export function entriesOf(
  drafts: EntryDraft[],
  connections: ConnectionChoice[],
): { provider: string; model: string; weight?: number; connection?: string }[] {
  return drafts.map((draft) => {
    const weight = draft.weight.trim() === "" ? undefined : Number(draft.weight);
    const extra = weight === undefined ? {} : { weight };
    if (draft.through.startsWith("connection:")) {
      const slug = draft.through.slice("connection:".length);
      const connection = connections.find((c) => c.slug === slug);
      return { provider: connection?.provider ?? "custom", model: draft.model.trim(), connection: slug, ...extra };
    }
    return { provider: draft.through.slice("provider:".length), model: draft.model.trim(), ...extra };
  });
}

interface ErrorLike {
  message?: string;
  data?: { app?: { errors?: { path?: string; message: string }[] } } | null;
}

const FIELD_NAMES: Record<string, string> = {
  provider: "provider",
  model: "model",
  weight: "weight",
  connection: "connection",
};

/**
 * The server's refusal in words: a validation error's fields become "Entry 2, model: …" and
 * "Name: …" instead of the API's "Request body is invalid: entries.1.model: …".
 */
export function describeAliasError(error: unknown): string {
  const e = (error ?? {}) as ErrorLike;
  const fields = e.data?.app?.errors;
  if (!fields?.length) return e.message ?? String(error);
  return fields
    .map(({ path = "", message }) => {
      const entry = /^entries\.(\d+)\.(\w+)/.exec(path);
      if (entry) return `Entry ${Number(entry[1]) + 1}, ${FIELD_NAMES[entry[2]] ?? entry[2]}: ${message}`;
      if (path === "name") return `Name: ${message}`;
      if (path === "entries") return `Entries: ${message}`;
      if (path === "attempt_timeout_ms") return `Time per attempt: ${message}`;
      return path ? `${path}: ${message}` : message;
    })
    .join(" ");
}
