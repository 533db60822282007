"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { UIMessage } from "ai";
import { useCallback } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";

/** A conversation to show: its agent session id and the messages it starts with. */
export interface OpenSession {
  id: string;
  messages: UIMessage[];
}

/**
 * The agent's stored chat sessions (server/chat-sessions): the list, `open` to load one, and
 * `save` after each turn. Viewers can read sessions but not run turns, so they never save.
 */
export function useChatSessions(agentId: string, variantId?: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const list = useQuery(trpc.chatSessions.list.queryOptions({ agentId }));
  const saver = useMutation(
    trpc.chatSessions.save.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.chatSessions.list.queryKey({ agentId }) }),
    }),
  );
  const { mutate } = saver;
  const save = useCallback(
    (id: string, messages: UIMessage[]) => {
      if (canEdit && messages.length > 0)
        mutate({ id, agentId, variantId, messages: messages as unknown as Parameters<typeof mutate>[0]["messages"] });
    },
    [agentId, canEdit, mutate, variantId],
  );
  const open = useCallback(
    async (id: string): Promise<OpenSession | null> => {
      const found = await queryClient.fetchQuery(trpc.chatSessions.get.queryOptions({ id }));
      return found ? { id: found.id, messages: found.messages as UIMessage[] } : null;
    },
    [queryClient, trpc],
  );
  return { sessions: list.data ?? [], listed: list.isSuccess, save, saveError: saver.error, open };
}
