"use client";

import { generateId, type UIMessage } from "ai";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { ChatIcon } from "@/components/agents";
import { SelectInput } from "@/components/editor/select-input";
import { Button, formatRelative, Notice } from "@/components/ui";
import { ChatTranscript } from "./chat-transcript";
import type { ChatTarget } from "./chat-target";
import { useChatSessions, type OpenSession } from "./use-chat-sessions";
import { usePlaygroundChat } from "./use-playground-chat";

interface ChatPanelProps {
  agentId: string;
  variantId: string;
  target: ChatTarget | null;
  unavailable?: string;
  emptyHint: string;
  /** A session to start with (a link to one, or a run opened from its trace); else a new chat. */
  initial?: OpenSession | null;
  /** Controls shown before the session picker (the chat page's target). */
  toolbar?: ReactNode;
  /** Why the chat did not open what was asked for. */
  notice?: string;
  /** Told the stored session on screen (undefined for a chat not saved yet), so a page can name it in its URL. */
  onSessionChange?: (sessionId: string | undefined) => void;
}

/**
 * A conversation with one target: the agent's stored sessions to switch between, the message
 * list, the composer, stop, regenerate and a fresh start. Used beside the editor (the draft)
 * and on the chat page (a revision or environment).
 */
export function ChatPanel({
  agentId,
  variantId,
  target,
  unavailable,
  emptyHint,
  initial,
  toolbar,
  notice,
  onSessionChange,
}: ChatPanelProps) {
  // A new id is a new agent session on the server.
  const [session, setSession] = useState<OpenSession>(() => initial ?? { id: generateId(), messages: [] });
  const { sessions, listed, save, saveError, open } = useChatSessions(agentId, variantId);
  const [openError, setOpenError] = useState<string | null>(null);
  const stored = sessions.some((s) => s.id === session.id);
  const shownSession = stored ? session.id : undefined;
  // Told only of a change: the session the page opened with is the one its URL already names.
  const named = useRef(initial?.id);
  useEffect(() => {
    if (!listed || shownSession === named.current) return;
    named.current = shownSession;
    onSessionChange?.(shownSession);
  }, [listed, onSessionChange, shownSession]);

  async function choose(id: string) {
    setOpenError(null);
    if (!id) return setSession({ id: generateId(), messages: [] });
    const found = await open(id).catch(() => null);
    if (found) setSession(found);
    else setOpenError("That session could not be opened; it may have been removed.");
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b border-line px-3 py-2">
        {toolbar}
        <label htmlFor={`sessions-${agentId}`} className="sr-only">
          Chat session
        </label>
        <div className="min-w-0 flex-1 basis-48">
          <SelectInput
            id={`sessions-${agentId}`}
            value={stored ? session.id : ""}
            onChange={(e) => void choose(e.target.value)}
          >
            {/* Short: in the editor's side pane the picker is about 200 px wide. */}
            <option value="">{stored ? "New chat" : "Unsaved chat"}</option>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title} · {formatRelative(new Date(s.updatedAt))}
              </option>
            ))}
          </SelectInput>
        </div>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => void choose("")}
          disabled={!stored && session.messages.length === 0}
        >
          New chat
        </Button>
      </div>
      {notice && (
        <Notice tone="warning" title="Opened a new chat" className="mx-3 mt-2">
          {notice}
        </Notice>
      )}
      {(openError || saveError) && (
        <Notice tone="warning" title={openError ? "Not opened" : "This chat was not saved"} className="mx-3 mt-2">
          {openError ?? saveError?.message}
        </Notice>
      )}
      <Conversation
        key={session.id}
        session={session}
        target={target}
        unavailable={unavailable}
        emptyHint={emptyHint}
        onTurnEnd={(messages) => save(session.id, messages)}
      />
    </div>
  );
}

function Conversation({
  session,
  target,
  unavailable,
  emptyHint,
  onTurnEnd,
}: {
  session: OpenSession;
  target: ChatTarget | null;
  unavailable?: string;
  emptyHint: string;
  onTurnEnd: (messages: UIMessage[]) => void;
}) {
  const chat = usePlaygroundChat(session.id, target, { initialMessages: session.messages, onTurnEnd });
  const [input, setInput] = useState("");
  const busy = chat.status === "submitted" || chat.status === "streaming";
  const last = chat.messages.at(-1);

  function send(event?: FormEvent) {
    event?.preventDefault();
    const text = input.trim();
    if (!text || busy || unavailable) return;
    setInput("");
    void chat.sendMessage({ text });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ChatTranscript
        chat={chat}
        empty={
          <div className="flex h-full flex-col items-center justify-center gap-2 text-center text-sm text-muted">
            <ChatIcon className="size-5" />
            <p>{unavailable ?? emptyHint}</p>
          </div>
        }
      />
      <form onSubmit={send} className="flex items-end gap-2 border-t border-line p-3">
        <label htmlFor={`composer-${session.id}`} className="sr-only">
          Message the agent
        </label>
        <textarea
          id={`composer-${session.id}`}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={onKeyDown}
          rows={2}
          placeholder={unavailable ? "Chat is unavailable" : "Message the agent… (Enter sends)"}
          disabled={Boolean(unavailable)}
          className="min-w-0 flex-1 resize-none rounded-lg border border-line bg-surface px-3 py-2 text-sm focus:border-accent focus:outline-none"
        />
        <div className="flex shrink-0 flex-col items-stretch gap-1.5">
          {busy ? (
            <Button size="sm" variant="secondary" onClick={() => void chat.stop()}>
              Stop
            </Button>
          ) : (
            last?.role === "assistant" && (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => void chat.regenerate()}
                disabled={Boolean(unavailable)}
              >
                Regenerate
              </Button>
            )
          )}
          <Button size="sm" variant="primary" type="submit" disabled={busy || !input.trim() || Boolean(unavailable)}>
            Send
          </Button>
        </div>
      </form>
    </div>
  );
}
