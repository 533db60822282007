import type { AppContext } from "@/server/core/app-context";
import { BadRequestError } from "@/server/core/errors";
import { secretValueOf, vaultOf } from "@/server/vault";

export interface TurnSecrets {
  /** A vault secret's value by slug or name (MCP header references); undefined when absent. */
  secretValue(name: string): Promise<string | undefined>;
  /** The same for code tools, which run in the session's sandbox. */
  codeSecretValue(name: string): Promise<string | undefined>;
}

/**
 * The project's vault secrets as a turn's tools read them. A code tool's secrets reach its
 * command; in a hosted sandbox that is someone else's machine, where provider keys never go.
 */
export function turnSecrets(app: AppContext, projectId: string, sandboxKind: string): TurnSecrets {
  const findSecret = async (name: string) =>
    (await vaultOf(app).list(projectId)).find((s) => s.slug === name || s.name === name);
  return {
    async secretValue(name) {
      const secret = await findSecret(name);
      return secret ? secretValueOf(secret) : undefined;
    },
    async codeSecretValue(name) {
      const secret = await findSecret(name);
      if (secret && secret.kind !== "secret" && sandboxKind !== "local") {
        throw new BadRequestError(
          `tools: "${name}" is a provider key, and provider keys never enter a ${sandboxKind}; store the value a code tool needs as a plain secret`,
          "secret_not_allowed",
        );
      }
      return secret ? secretValueOf(secret) : undefined;
    },
  };
}
