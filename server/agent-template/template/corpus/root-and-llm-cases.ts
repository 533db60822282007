import { invalid, type CorpusCase } from "./corpus-case";

export const rootAndLlmCases: CorpusCase[] = [
  invalid("template as a string", "gpt-5", ["", "must be an object"]),
  invalid("template as an array", [], ["", "must be an object; got an array"]),
  invalid("template as null", null, ["", "must be an object; got null"]),
  invalid("flat model key", { model: "gpt-5" }, ["model", "use llm.model"]),
  invalid("flat agents_md key", { agents_md: "hi" }, ["agents_md", "use instructions.agents_md"]),
  invalid("flat provider key", { provider: "openai" }, ["provider", "use llm.provider"]),
  invalid(
    "flat model and agents_md together",
    { model: "x", agents_md: "y" },
    ["model", "use llm.model"],
    ["agents_md", "use instructions.agents_md"],
  ),
  invalid("unknown root key", { temperature: 1 }, [
    "temperature",
    'unknown key "temperature"; allowed keys: instructions, llm, tools, mcps, skills, harness, runner, sandbox',
  ]),
  invalid("instructions unknown key", { instructions: { system: "x" } }, [
    "instructions.system",
    'unknown key "system"; allowed keys: agents_md',
  ]),
  invalid("agents_md not a string", { instructions: { agents_md: 42 } }, [
    "instructions.agents_md",
    "must be a string; got 42",
  ]),
  invalid("instructions as a string", { instructions: "hello" }, ["instructions", "must be an object"]),
  invalid("llm unknown key", { llm: { temperature: 0.2 } }, [
    "llm.temperature",
    "allowed keys: model, provider, connection, extras",
  ]),
  invalid("llm as a string", { llm: "gpt-5" }, ["llm", "must be an object"]),
  invalid("llm null", { llm: null }, ["llm", "must be an object; got null"]),
  invalid("empty model", { llm: { model: "" } }, ["llm.model", "must not be empty"]),
  invalid("model not a string", { llm: { model: 5 } }, ["llm.model", "must be a string"]),
  invalid("empty provider", { llm: { provider: "", model: "gpt-5" } }, ["llm.provider", "must not be empty"]),
  invalid("provider/model with empty model", { llm: { model: "openai/" } }, ["llm.model", "splits on its first"]),
  invalid("provider/model with empty provider", { llm: { model: "/gpt-5" } }, ["llm.model", "empty provider or model"]),
  invalid("null provider with an empty model half", { llm: { provider: null, model: "gemini/" } }, [
    "llm.model",
    "set llm.provider",
  ]),
  invalid("slug with self_managed", { llm: { connection: { mode: "self_managed", slug: "mine" } } }, [
    "llm.connection.slug",
    'valid only with mode "managed"',
  ]),
  invalid("unknown connection mode", { llm: { connection: { mode: "stored" } } }, [
    "llm.connection.mode",
    "must be one of managed, self_managed",
  ]),
  invalid("connection unknown key", { llm: { connection: { api_key: "sk" } } }, [
    "llm.connection.api_key",
    "allowed keys: mode, slug",
  ]),
  invalid("empty connection slug", { llm: { connection: { slug: "" } } }, ["llm.connection.slug", "must not be empty"]),
  invalid("connection as a string", { llm: { connection: "my-openai" } }, ["llm.connection", "must be an object"]),
  invalid("llm extras as an array", { llm: { extras: [] } }, ["llm.extras", "must be an object; got an array"]),
  invalid(
    "several problems are all reported",
    {
      model: "x",
      llm: { model: "" },
      tools: [{ type: "builtin" }],
      runner: { permissions: { default: "sometimes" } },
      sandbox: "local",
    },
    ["model", "use llm.model"],
    ["llm.model", "must not be empty"],
    ["tools[0].name", "is required"],
    ["runner.permissions.default", "allow, ask, deny, allow_reads"],
    ["sandbox", 'use an object with "kind"'],
  ),
];
