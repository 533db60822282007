/**
 * The security headers every answer carries: the pages' Content-Security-Policy (a nonce per
 * request), the API's, and the headers both share. One definition for the two places that send
 * them: `proxy.ts` (whatever Next.js serves: pages, tRPC, and the API under `next dev` and on
 * Vercel) and `server/boot/front.ts` (the production server's router paths).
 */

/** Directives an operator may extend (CSP_EXTRA); the rest of the policy is not theirs to loosen. */
export const EXTENSIBLE_DIRECTIVES = [
  "script-src",
  "style-src",
  "img-src",
  "font-src",
  "connect-src",
  "media-src",
  "worker-src",
  "frame-src",
  "form-action",
  "frame-ancestors",
] as const;

export type ExtensibleDirective = (typeof EXTENSIBLE_DIRECTIVES)[number];

/** Sources an operator adds per directive (`img-src https://cdn.example.com; connect-src https://x`). */
export type CspAdditions = Partial<Record<ExtensibleDirective, readonly string[]>>;

export interface SecurityHeaderSettings {
  /** The operator said the app is served over HTTPS (PUBLIC_URL is https): HSTS, upgrade-insecure-requests. */
  https: boolean;
  cspAdditions: CspAdditions;
  /** `next dev`: React's dev build evaluates strings to rebuild server error stacks. */
  development?: boolean;
}

type Policy = Record<string, string[]>;

/**
 * The pages' policy. Scripts run only with this request's nonce (Next.js puts it on its own
 * scripts and chunks; the theme script reads it in app/layout.tsx); `'strict-dynamic'` lets those
 * load the chunks they import. `'unsafe-eval'`: the agent editor compiles the catalog's JSON
 * Schema with ajv in the browser, which builds its validator with `new Function`; a planted
 * string still cannot start a script (no inline script or handler runs without the nonce).
 * Styles may be inline: React's `style` props and the charts set them, and CSS starts no script.
 */
function pagePolicy(nonce: string, settings: SecurityHeaderSettings): Policy {
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", "'unsafe-eval'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'self'"],
    ...(settings.https ? { "upgrade-insecure-requests": [] } : {}),
  };
}

/** JSON and streams: nothing in them may load or run anything, and no page may frame them. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

function serialise(policy: Policy, additions: CspAdditions): string {
  const merged: Policy = { ...policy };
  for (const [directive, sources] of Object.entries(additions)) {
    const base = merged[directive] ?? merged["default-src"];
    merged[directive] = [...base.filter((source) => source !== "'none'"), ...(sources ?? [])];
  }
  return Object.entries(merged)
    .map(([directive, sources]) => [directive, ...sources].join(" "))
    .join("; ");
}

/** Headers both pages and API answers carry. */
function sharedHeaders(settings: SecurityHeaderSettings): Record<string, string> {
  return {
    "x-content-type-options": "nosniff",
    // Same-origin requests keep their Referer (and Origin, which the CSRF check reads); other
    // sites never learn a playground path (trace and project ids).
    "referrer-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
    // Only browsers that reached it over HTTPS keep it; a year, the common minimum for preload lists.
    ...(settings.https ? { "strict-transport-security": "max-age=31536000" } : {}),
  };
}

/** A page's headers, for the nonce its scripts carry. */
export function pageSecurityHeaders(nonce: string, settings: SecurityHeaderSettings): Record<string, string> {
  const policy = pagePolicy(nonce, settings);
  if (settings.development) policy["connect-src"].push("ws:");
  return {
    ...sharedHeaders(settings),
    "content-security-policy": serialise(policy, settings.cspAdditions),
    // Browsers that predate CSP's frame-ancestors (which supersedes this where both are known).
    "x-frame-options": "SAMEORIGIN",
  };
}

/** An API answer's headers (the same for every answer: compute them once). */
export function apiSecurityHeaders(settings: SecurityHeaderSettings): Record<string, string> {
  return { ...sharedHeaders(settings), "content-security-policy": API_CSP, "x-frame-options": "DENY" };
}

/** A fresh, unguessable nonce (128 bits). */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

const SOURCE =
  /^[^\s;,'"]+$|^'(self|none|unsafe-inline|unsafe-hashes|wasm-unsafe-eval|sha(256|384|512)-[A-Za-z0-9+/=]+)'$/;

/**
 * CSP_EXTRA: `directive source source; directive source`, each directive one of
 * EXTENSIBLE_DIRECTIVES and each source a host, scheme or quoted keyword (never a nonce: those are
 * per request). The first thing wrong, or the additions.
 */
export function parseCspAdditions(value: string): CspAdditions | { error: string } {
  const additions: Record<string, string[]> = {};
  for (const part of value.split(";")) {
    const [directive, ...sources] = part.trim().split(/\s+/).filter(Boolean);
    if (directive === undefined) continue;
    const name = directive.toLowerCase();
    if (!(EXTENSIBLE_DIRECTIVES as readonly string[]).includes(name))
      return {
        error: `CSP_EXTRA: "${directive}" is not a directive that can be extended (${EXTENSIBLE_DIRECTIVES.join(", ")})`,
      };
    if (sources.length === 0) return { error: `CSP_EXTRA: "${directive}" names no source to add` };
    const bad = sources.find((source) => !SOURCE.test(source));
    if (bad) return { error: `CSP_EXTRA: "${bad}" (in ${name}) is not a host, scheme or quoted keyword` };
    additions[name] = [...(additions[name] ?? []), ...sources];
  }
  return additions;
}

/** What the configuration says about these headers. */
export function securityHeaderSettings(config: {
  publicUrl?: string;
  cspAdditions: CspAdditions;
}): SecurityHeaderSettings {
  return { https: config.publicUrl?.startsWith("https://") ?? false, cspAdditions: config.cspAdditions };
}
