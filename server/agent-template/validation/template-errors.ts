import type { z } from "zod";
import { formatPath } from "@/server/core/zod-issues";
import { EMBED_KEY, isEmbedReference } from "../template";
import type { TemplateError } from "./template-error";
import { unknownKeyMessage } from "./unknown-key-message";

const EMBED_MESSAGE = `is an unresolved embed reference ("${EMBED_KEY}"); embeds are resolved to inline entries before the template is validated`;

/** Lists whose entries may arrive as embed references. */
const EMBEDDABLE = new Set(["tools", "skills"]);

/** The `tools[n]` / `skills[n]` path when the issue sits inside an embed reference. */
function embedEntryPath(input: unknown, path: readonly PropertyKey[]): PropertyKey[] | undefined {
  const [list, index] = path;
  if (typeof list !== "string" || !EMBEDDABLE.has(list) || typeof index !== "number") return undefined;
  const entries = (input as Record<string, unknown> | null)?.[list];
  return Array.isArray(entries) && isEmbedReference(entries[index]) ? [list, index] : undefined;
}

/**
 * zod issues to errors a person can act on: one error per unknown key (named, with the keys that
 * are allowed), one error per embed reference instead of the noise of matching it against every
 * tool type, duplicates removed.
 */
export function templateErrors(issues: readonly z.core.$ZodIssue[], input: unknown): TemplateError[] {
  const errors: TemplateError[] = [];
  const seen = new Set<string>();
  const add = (path: readonly PropertyKey[], message: string) => {
    const error = { path: formatPath(path), message };
    const key = `${error.path}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    errors.push(error);
  };
  for (const issue of issues) {
    const embed = embedEntryPath(input, issue.path);
    if (embed) add(embed, EMBED_MESSAGE);
    else if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        add([...issue.path, key], unknownKeyMessage(formatPath(issue.path), key, issue.message));
    } else add(issue.path, issue.message);
  }
  return errors;
}
