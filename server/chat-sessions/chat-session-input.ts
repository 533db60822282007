import { z } from "zod";

/** The agent session ids the chat makes (`generateId`) and any id an API caller sent to invoke. */
export const sessionIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.:-]+$/, "letters, digits, _ . : - only");

/** An AI SDK UI message as the browser holds it; parts are kept as given. */
const uiMessageSchema = z
  .object({
    id: z.string().min(1).max(200),
    role: z.enum(["user", "assistant", "system"]),
    parts: z.array(z.record(z.string(), z.unknown())).max(1000),
    metadata: z.unknown().optional(),
  })
  .passthrough();

export const saveChatSessionSchema = z.strictObject({
  id: sessionIdSchema,
  agentId: z.string().uuid(),
  variantId: z.string().uuid().optional(),
  messages: z.array(uiMessageSchema).min(1).max(2000),
});

export type SaveChatSessionInput = z.infer<typeof saveChatSessionSchema>;

/** Stored as JSONB; a session past this size is refused rather than silently cut. */
export const MAX_SESSION_BYTES = 2_000_000;
