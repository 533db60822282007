import { BadRequestError } from "@/server/core/errors";
import { domainKeys, domainOfSingular, type DomainName } from "./domains";
import { refSchema, type RetrieveRefs } from "./references";

export const EMBED_KEY = "@svc.embed";
export const REFERENCES_KEY = "@svc.references";
export const SELECTOR_KEY = "@svc.selector";
/** The string form: `@svc.embed[@svc.references[workflow.slug=x, workflow.version=2], @svc.selector[path=parameters.prompt]]`. */
export const STRING_EMBED = `${EMBED_KEY}[`;

export interface ParsedEmbed {
  domain: DomainName;
  refs: RetrieveRefs;
  selector?: { path: string };
  label: string;
}

export function isEmbed(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && EMBED_KEY in value;
}

/** `{"@svc.embed": {"@svc.references": {...}, "@svc.selector": {"path"}}}`. */
export function parseObjectEmbed(value: Record<string, unknown>, where: string): ParsedEmbed {
  const body = value[EMBED_KEY];
  if (typeof body !== "object" || body === null) throw invalid(where, `${EMBED_KEY} must be an object`);
  const references = (body as Record<string, unknown>)[REFERENCES_KEY];
  const selector = (body as Record<string, unknown>)[SELECTOR_KEY];
  if (typeof references !== "object" || references === null) {
    throw invalid(where, `${REFERENCES_KEY} must be an object such as {"workflow": {"slug": "..."}}`);
  }
  if (
    selector !== undefined &&
    (typeof selector !== "object" || selector === null || typeof (selector as { path?: unknown }).path !== "string")
  ) {
    throw invalid(where, `${SELECTOR_KEY} must be {"path": "parameters.<name>"}`);
  }
  return fromReferences(references as Record<string, unknown>, selector as { path: string } | undefined, where);
}

export interface StringEmbedToken {
  start: number;
  end: number;
  text: string;
}

/** Every `@svc.embed[...]` token of a string, found by bracket matching. */
export function findStringEmbeds(value: string): StringEmbedToken[] {
  const tokens: StringEmbedToken[] = [];
  let from = 0;
  for (let start = value.indexOf(STRING_EMBED, from); start !== -1; start = value.indexOf(STRING_EMBED, from)) {
    const end = closingBracket(value, start + STRING_EMBED.length - 1);
    if (end === -1) break;
    tokens.push({ start, end: end + 1, text: value.slice(start, end + 1) });
    from = end + 1;
  }
  return tokens;
}

export function parseStringEmbed(token: string, where: string): ParsedEmbed {
  const inner = token.slice(STRING_EMBED.length, -1);
  const references = section(inner, REFERENCES_KEY);
  if (references === undefined) throw invalid(where, `${token} has no ${REFERENCES_KEY}[...]`);
  const refs: Record<string, Record<string, string>> = {};
  for (const [key, value] of pairs(references, where)) {
    const dot = key.lastIndexOf(".");
    if (dot === -1) throw invalid(where, `${REFERENCES_KEY}[${key}=...] must name a field, such as workflow.slug`);
    (refs[key.slice(0, dot)] ??= {})[key.slice(dot + 1)] = value;
  }
  const selectorText = section(inner, SELECTOR_KEY);
  let selector: { path: string } | undefined;
  if (selectorText !== undefined) {
    const path = pairs(selectorText, where).find(([k]) => k === "path")?.[1];
    if (path === undefined) throw invalid(where, `${SELECTOR_KEY}[...] needs path=<dotted path>`);
    selector = { path };
  }
  return fromReferences(refs, selector, where);
}

/** `{"workflow": {...}, "workflow_revision": {...}}`: the deepest level is the target, the others scope it. */
function fromReferences(
  references: Record<string, unknown>,
  selector: { path: string } | undefined,
  where: string,
): ParsedEmbed {
  const refs: RetrieveRefs = {};
  let domain: DomainName | undefined;
  for (const [rawKey, raw] of Object.entries(references)) {
    const key = rawKey.replace(/_ref$/, "");
    if (key === "key") {
      refs.key = String(raw);
      continue;
    }
    const parsed = refSchema.safeParse(raw);
    if (!parsed.success) throw invalid(where, `${REFERENCES_KEY}.${rawKey} is not a reference`);
    const [one, part = "artifact"] = key.split(/_(variant|revision)$/);
    if (one === "environment") {
      refs[part === "artifact" ? "environment" : part === "variant" ? "environmentVariant" : "environmentRevision"] =
        parsed.data;
      continue;
    }
    const d = domainOfSingular(one);
    if (!d) throw invalid(where, `unknown reference key ${rawKey}`);
    if (domain && d !== domain) throw invalid(where, `references mix ${domain} and ${d}`);
    domain = d;
    refs[part === "artifact" ? "artifact" : part === "variant" ? "variant" : "revision"] = parsed.data;
  }
  // Environment references alone, without a key, name the environment revision itself: its data
  // is embedded (as the compat API does), not read as a retrieve through the environment.
  if (!domain && refs.key === undefined && (refs.environment || refs.environmentVariant || refs.environmentRevision)) {
    const own: RetrieveRefs = {
      artifact: refs.environment,
      variant: refs.environmentVariant,
      revision: refs.environmentRevision,
    };
    return { domain: "environments", refs: own, selector, label: labelOf("environments", own) };
  }
  const resolvedDomain = domain ?? "workflows";
  return { domain: resolvedDomain, refs, selector, label: labelOf(resolvedDomain, refs) };
}

function labelOf(domain: DomainName, refs: RetrieveRefs): string {
  const one = domainKeys(domain).one;
  const ref = refs.revision ?? refs.variant ?? refs.artifact ?? refs.environment;
  const name = ref?.slug ? `"${ref.slug}"` : (ref?.id ?? "");
  return `${one} ${name}${ref?.version ? ` version ${ref.version}` : ""}`.trim();
}

function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) return i;
  }
  return -1;
}

/** The content of `<name>[...]` inside a token, or undefined when absent. */
function section(inner: string, name: string): string | undefined {
  const at = inner.indexOf(`${name}[`);
  if (at === -1) return undefined;
  const open = at + name.length;
  const close = closingBracket(inner, open);
  return close === -1 ? undefined : inner.slice(open + 1, close);
}

/** `a=1, b=2` (or `&` between parts, `:` between key and value, as the compat API accepts). */
function pairs(text: string, where: string): [string, string][] {
  return text
    .split(/[,&]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^([^=:]+)[=:](.*)$/.exec(part);
      if (!m) throw invalid(where, `"${part}" is not key=value`);
      return [m[1].trim(), m[2].trim()];
    });
}

function invalid(where: string, why: string): BadRequestError {
  return new BadRequestError(`Embed at ${where}: ${why}`, "invalid_embed");
}
