import { createHash } from "node:crypto";

/** What every provider accepts as a function name (Gemini also wants a letter or `_` first). */
const SAFE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * The model-visible name of an MCP tool: `<server>__<tool>` when that is already a safe name;
 * otherwise the unsafe characters become `_`, the name is cut to fit 64 characters, and eight hex
 * digits of the SHA-256 of `<server>__<tool>` are appended. Only changed names carry the hash,
 * so two different pairs never meet on one name (`a.b`/`c` and `a_b`/`c` stay apart), and the
 * same pair always gets the same name, turn after turn.
 */
export function mcpToolName(server: string, tool: string): string {
  const raw = `${server}__${tool}`;
  if (SAFE_NAME.test(raw)) return raw;
  const hash = createHash("sha256").update(raw).digest("hex").slice(0, 8);
  let safe = raw.replace(/[^A-Za-z0-9_-]/g, "_");
  if (!/^[A-Za-z_]/.test(safe)) safe = `_${safe}`;
  return `${safe.slice(0, 64 - hash.length - 1)}_${hash}`;
}
