/** An agent whose `write` asks before it runs: the default policy (allow_reads) runs reads only. */
export const askingAgent = {
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: ["read", "write"].map((name) => ({ type: "builtin", name })),
};

/** The model's call of `write` that pauses the turn for an approval. */
export const WRITE_CALL = { id: "call_w", name: "write", input: { path: "notes.txt", content: "approved text" } };
