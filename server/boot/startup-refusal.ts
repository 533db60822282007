import { SecretKeyMismatchError } from "@/server/encryption";

/**
 * Ends a process whose start-up was refused for a reason the operator can act on (a second
 * instance started without the shared APP_SECRET_KEY) with that reason as one line on stderr
 * and exit code 1, rather than an unhandled rejection's stack trace. Anything else is rethrown:
 * a bug keeps its stack.
 */
export function exitOnStartupRefusal(error: unknown): never {
  if (error instanceof SecretKeyMismatchError) {
    process.stderr.write(`Start-up refused: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
