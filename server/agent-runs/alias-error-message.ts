import { APICallError } from "ai";
import type { EntryTry } from "./providers";
import type { ResolvedConnection } from "./providers/connection";
import { runErrorMessage } from "./run-error-message";

/**
 * A turn's failure through a model alias (server/controls README, "Aliases"). The sentence is the
 * failure that ended the call, worded with the connection of the entry it came from (the last
 * one tried: never the first entry's label with another entry's status); when more than one
 * entry was tried, what each one did follows, in the order tried (an entry the SDK retried, by
 * its last try). Built from statuses, codes and labels only, as runErrorMessage is.
 */
export function aliasErrorMessage(
  alias: { name: string; connections: ResolvedConnection[]; attemptTimeoutMs: number },
  tries: EntryTry[],
  failure: unknown,
): string {
  const last = tries.at(-1);
  if (!last) return runErrorMessage(failure, alias.connections[0]);
  const cause = last.outcome === "answered" ? failure : (last.error ?? failure);
  const sentence = /\btimeout$/.test(last.outcome)
    ? `${capitalise(last.connection.label)} sent nothing within ${alias.attemptTimeoutMs} ms (the alias's attempt_timeout_ms).`
    : runErrorMessage(cause, last.connection);
  const byEntry = new Map<ResolvedConnection, string>();
  for (const one of tries) {
    byEntry.delete(one.connection);
    byEntry.set(one.connection, outcomeOf(one));
  }
  if (byEntry.size === 1) return sentence;
  const allFailed = byEntry.size === alias.connections.length && last.outcome !== "answered";
  const summary = allFailed
    ? `Every entry of model alias "${alias.name}" failed`
    : `Model alias "${alias.name}" tried ${byEntry.size} of its ${alias.connections.length} entries`;
  const each = [...byEntry].map(([connection, outcome]) => `${connection.provider}/${connection.model}: ${outcome}`);
  return `${summary} (${each.join("; ")}). ${sentence}`;
}

/** What one try did, in the trace's words (`status 429`, `connection refused`, `timeout`, ...). */
function outcomeOf(one: EntryTry): string {
  if (one.outcome === "answered") return "answered, then its reply failed";
  const reason = one.outcome.replace(/^failed: /, "");
  if (reason !== "failed") return reason;
  return APICallError.isInstance(one.error) && one.error.statusCode !== undefined
    ? `status ${one.error.statusCode}`
    : "failed";
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
