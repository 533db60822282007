/**
 * The bench's model, in a process of its own (a hosted model is never on the service's thread):
 * the scripted server answering as the improve tests' model does. Asked by the optimizer, it
 * proposes the base instructions plus the missing rule; asked to add, it answers right unless `a`
 * is even and the instructions lack the rule. The first message sent is `{ baseUrl }`.
 */
import { startScriptedModelServer } from "../../tests/helpers/scripted-model-server";

const server = await startScriptedModelServer();
server.respondWith((request) => {
  server.requests.length = 0;
  const text = JSON.stringify(request.body ?? "");
  if (text.includes("You improve the instructions"))
    return {
      kind: "reply",
      text: "<instructions>\nYou add two numbers. Answer with the sum only.\nCARRY RULE: check the sum twice.\n</instructions>",
      usage: { input: 400, output: 40 },
    };
  const numbers = [...text.matchAll(/Add (\d+) and (\d+)/g)].at(-1);
  const a = Number(numbers?.[1] ?? 0);
  const b = Number(numbers?.[2] ?? 0);
  const wrong = a % 2 === 0 && !text.includes("CARRY RULE");
  return { kind: "reply", text: String(wrong ? a + b + 100 : a + b), usage: { input: 30, output: 3 } };
});
process.on("disconnect", () => void server.close().finally(() => process.exit(0)));
process.send!({ baseUrl: server.baseUrl });
