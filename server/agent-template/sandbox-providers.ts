import { SANDBOX_KINDS, type SandboxKind } from "./template";

/** `SANDBOX_PROVIDERS` and the settings providers need, by their variable names (the app passes its config's). */
type Env = Record<string, string | undefined>;

/** Providers that need more configuration than being listed, and the variable that holds it. */
const REQUIRED_SETTING: Partial<Record<SandboxKind, string>> = { daytona_sandbox: "DAYTONA_API_KEY" };

const isKind = (name: string): name is SandboxKind => (SANDBOX_KINDS as readonly string[]).includes(name);

function listed(env: Env): string[] {
  const raw = env.SANDBOX_PROVIDERS?.trim() || "local";
  return raw
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

const configured = (kind: SandboxKind, env: Env) => {
  const setting = REQUIRED_SETTING[kind];
  return setting === undefined || Boolean(env[setting]?.trim());
};

/**
 * Sandbox providers this deployment accepts: `SANDBOX_PROVIDERS` (comma list, default `local`),
 * keeping only known kinds whose own settings are present.
 */
export function enabledSandboxProviders(env: Env = process.env): SandboxKind[] {
  return [...new Set(listed(env))].filter(isKind).filter((kind) => configured(kind, env));
}

/** Configuration mistakes worth logging at start-up: unknown names, providers missing their settings. */
export function sandboxProviderProblems(env: Env = process.env): string[] {
  return listed(env).flatMap((name) => {
    if (!isKind(name))
      return [`SANDBOX_PROVIDERS lists unknown provider "${name}"; known: ${SANDBOX_KINDS.join(", ")}`];
    if (!configured(name, env)) return [`SANDBOX_PROVIDERS lists "${name}" but ${REQUIRED_SETTING[name]} is not set`];
    return [];
  });
}

/** null when the deployment runs `kind`; otherwise the refusal message, given before the run starts. */
export function sandboxRefusal(kind: string, env: Env = process.env): string | null {
  const enabled = enabledSandboxProviders(env);
  if ((enabled as string[]).includes(kind)) return null;
  return `sandbox.kind "${kind}" is not enabled in this deployment; enabled: ${enabled.join(", ") || "none"}`;
}
