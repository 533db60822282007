"use client";

import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from "ai";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { invokeBody, type ChatTarget } from "./chat-target";

/** The session-authenticated twin of the agent service's invoke (server/agent-runs/routes.ts). */
const PLAYGROUND_INVOKE = "/api/playground/invoke";
/** Its twin of `POST /services/agent/v0/runs/{id}/cancel`. */
const playgroundCancel = (runId: string) => `/api/playground/runs/${encodeURIComponent(runId)}/cancel`;

/**
 * `useChat` over the playground's invoke route: the session cookie authenticates, so no API key
 * reaches the browser. The target is read when each request is sent, so the editor's chat always
 * runs the draft as it is at that moment. A turn that pauses on client tools or approvals resumes
 * by itself once every one of them has an answer. `initialMessages` reopens a stored session.
 * `resume: true`: a turn outlives the page (server/agent-runs/runs), so on mount the chat asks
 * `GET {api}/{chatId}/stream` for the session's running turn and follows it (204: nothing runs).
 * The messages are also kept when a turn is sent, so a reload mid-turn finds the question the
 * running turn answers.
 * `traceId` is the last turn's trace (the response header), so a turn that failed mid-stream,
 * whose finish never arrives, still links its trace.
 */
export function usePlaygroundChat(
  chatId: string,
  target: ChatTarget | null,
  options: { initialMessages?: UIMessage[]; onTurnEnd?: (messages: UIMessage[]) => void } = {},
) {
  const onTurnEnd = useRef(options.onTurnEnd);
  useEffect(() => {
    onTurnEnd.current = options.onTurnEnd;
  }, [options.onTurnEnd]);
  const [traceId, setTraceId] = useState<string>();
  // The turn being streamed (x-svc-run-id of the send or of the resume): what Stop cancels. A
  // promise from the moment a request leaves, so a Stop pressed before the answer's headers cancels
  // this turn, not the one before it.
  const runId = useRef<Promise<string | undefined>>(Promise.resolve(undefined));
  const targetRef = useRef(target);
  useEffect(() => {
    targetRef.current = target;
  }, [target]);
  /* eslint-disable react-hooks/refs -- built once; the refs are read when a request is sent, never while rendering */
  const transport = useMemo(
    () =>
      new DefaultChatTransport<UIMessage>({
        api: PLAYGROUND_INVOKE,
        credentials: "same-origin",
        fetch: async (input, init) => {
          const answer = fetch(input, init);
          runId.current = answer.then(
            (response) => response.headers.get("x-svc-run-id") ?? undefined,
            () => undefined,
          );
          const response = await answer;
          setTraceId(response.headers.get("x-svc-trace-id") ?? undefined);
          return response;
        },
        headers: { "x-svc-messages-format": "ui_sdk", accept: "text/event-stream" },
        prepareSendMessagesRequest: ({ id, messages }) => {
          const current = targetRef.current;
          if (!current) throw new Error("Choose what to chat with first.");
          return { body: invokeBody(id, current, messages) };
        },
      }),
    [],
  );
  /* eslint-enable react-hooks/refs */
  const chat = useChat({
    id: chatId,
    messages: options.initialMessages,
    transport,
    resume: true,
    sendAutomaticallyWhen: turnCanResume,
    // A turn the server refused (a budget, the allowlist, a rate limit) has no answer: saving it
    // would leave a session holding one unanswered question.
    onFinish: ({ messages, isError }) => {
      if (!(isError && messages.at(-1)?.role === "user")) onTurnEnd.current?.(messages);
    },
  });
  const { status, messages } = chat;
  // Saved once the server has accepted the turn (its answer started), so a tab closed mid-turn
  // finds its session; a refused turn never gets that far.
  const answering = status === "streaming" && messages.at(-1)?.role === "assistant";
  const latest = useRef(messages);
  useEffect(() => {
    latest.current = messages;
  });
  useEffect(() => {
    if (answering) onTurnEnd.current?.(latest.current);
  }, [answering]);
  // A closed tab only detaches from a turn; Stop is the person asking for it to end.
  const { stop: detach } = chat;
  const stop = useCallback(async () => {
    // Detaching aborts the request: its run id is waited for first (a turn outlives its request, so
    // a Stop that aborted before the headers would leave the run going with no id to cancel it by).
    const running = await Promise.race([runId.current, sleep(RUN_ID_WAIT_MS)]);
    await detach();
    if (running)
      await fetch(playgroundCancel(running), { method: "POST", credentials: "same-origin" }).catch(() => null);
  }, [detach]);
  return { ...chat, stop, traceId };
}

export type PlaygroundChat = ReturnType<typeof usePlaygroundChat>;

/** How long Stop waits for a just-sent turn's run id before it only detaches. */
const RUN_ID_WAIT_MS = 10_000;
const sleep = (ms: number) => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms));

/** Every client tool answered, or every approval decided: the paused turn goes on. */
function turnCanResume(options: { messages: UIMessage[] }): boolean {
  return (
    lastAssistantMessageIsCompleteWithToolCalls(options) || lastAssistantMessageIsCompleteWithApprovalResponses(options)
  );
}
