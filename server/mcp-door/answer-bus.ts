import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { newId } from "@/server/core/ids";
import { processWide } from "@/server/core/process-wide";
import { onDatabaseClose, rawQuery, type Database } from "@/server/db";
import { listenForChanges } from "@/server/worker";

/** The channel a client's answer to a server request (elicitation) is passed on: `{session, message}` as JSON. */
const ANSWER_CHANNEL = "mcp_answered";

type Deliver = (message: JSONRPCMessage) => void;

interface AnswerBus {
  waiting: Map<string, { sessionId: string; deliver: Deliver }>;
  /** Settles once this instance listens (or cannot): a request is sent only then, so no answer is missed. */
  ready: Promise<void>;
}

/**
 * Stateless MCP: a server's request to the client (`elicitation/create`, sent on the tool call's
 * response stream) is answered by the client in a POST of its own, which any instance may take,
 * while the request waits on the instance holding the call. Every instance listens; the one
 * that waits delivers it. Requests are known by an id unique across instances (`awaitAnswer`),
 * and only the same MCP session's answer is taken.
 */
const busOf = processWide<Database, AnswerBus>("mcp-answer-bus", (db) => {
  let listening!: () => void;
  const bus: AnswerBus = { waiting: new Map(), ready: new Promise<void>((resolve) => (listening = resolve)) };
  const listener = listenForChanges(db, ANSWER_CHANNEL, {
    onChange: (payload) => {
      const { session, message } = JSON.parse(payload) as { session: string; message: JSONRPCMessage & { id: string } };
      const waiting = bus.waiting.get(String(message.id));
      if (waiting?.sessionId === session) waiting.deliver(message);
    },
    onListening: () => listening(),
    onLost: () => {},
  });
  // A database that cannot notify (no LISTEN): nothing will arrive, the request times out instead.
  if (listener.mode === "expiry") listening();
  onDatabaseClose(db, () => listener.stop());
  return bus;
});

/** Starts listening for answers now, so the first elicitation of this instance does not wait for it. */
export const answersHeard = (db: Database): Promise<void> => busOf(db).ready;

/** A fresh id for a server request that `deliver` receives the answer of; `release` once it is settled. */
export function awaitAnswer(db: Database, sessionId: string, deliver: Deliver): { id: string; release(): void } {
  const { waiting } = busOf(db);
  const id = `srv-${newId()}`;
  waiting.set(id, { sessionId, deliver });
  return { id, release: () => waiting.delete(id) };
}

/** Passes a client's answer to whichever instance waits for it. */
export async function announceAnswer(db: Database, sessionId: string, message: JSONRPCMessage): Promise<void> {
  busOf(db);
  await rawQuery(db, `select pg_notify('${ANSWER_CHANNEL}', $1)`, [JSON.stringify({ session: sessionId, message })]);
}
