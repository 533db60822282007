import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** A page of the manual: the root README or one of `docs/`, with its path for failure messages. */
export interface ManualPage {
  file: string;
  text: string;
}

export const ROOT = path.join(import.meta.dirname, "../..");

const read = (file: string): ManualPage => ({ file, text: readFileSync(path.join(ROOT, file), "utf8") });

/**
 * The root README, then the pages in the order `docs/README.md` lists them: the order a reader
 * pastes the examples in, so later examples may use what earlier ones set.
 */
export function manualPages(): ManualPage[] {
  const index = readFileSync(path.join(ROOT, "docs/README.md"), "utf8");
  const listed = [...index.matchAll(/^\| \[[^\]]+\]\(([a-z0-9-]+\.md)\) \|/gm)].map((m) => m[1]);
  return [read("README.md"), ...listed.map((name) => read(`docs/${name}`))];
}

/** The pages of `docs/` the index does not list (their examples would never run). */
export function unlistedPages(): string[] {
  const listed = new Set(manualPages().map((page) => page.file));
  return readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md") && name !== "README.md")
    .map((name) => `docs/${name}`)
    .filter((file) => !listed.has(file));
}

/** The bodies of a page's fenced blocks of one language, in order. */
export function codeBlocks(page: ManualPage, language: string): string[] {
  return [...page.text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]);
}
