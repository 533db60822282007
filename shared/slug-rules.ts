import { transliterate } from "transliteration";

/**
 * The slug rule, pure so the playground checks slugs with the same code the server does.
 * Letters, digits, `-` and `_`; no dots, because environment keys are `<slug>.revision`.
 */
export const SLUG_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?$/;
export const SLUG_MAX = 128;
export const SLUG_RULE = "a slug uses letters, digits, '-' and '_', and starts and ends with a letter or digit";

/**
 * `My Agent v2!` -> `my-agent-v2`, `Агент поддержки` -> `agent-podderzhki`, `客服助手` ->
 * `ke-fu-zhu-shou`: other scripts are transliterated to Latin first, so a slug stays readable.
 * Empty when nothing usable is left (emoji only).
 */
export function slugify(name: string): string {
  return transliterate(name)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX - 8)
    .replace(/-+$/, "");
}
