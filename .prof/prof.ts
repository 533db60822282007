import fs from "node:fs";
import { measure } from "../bench/lib/measure";
import { startNextServer } from "../bench/lib/next-server";

const kind = process.argv[2] ?? "retrieve";
const dir = "/tmp/cpuprof-" + kind;
fs.rmSync(dir, { recursive: true, force: true });
const server = await startNextServer({ databaseUrl: "postgres://postgres@127.0.0.1:5432/test", env: { NODE_OPTIONS: `--import /work/main/.prof/cpu.mjs`, PROF_OUT: `/tmp/${kind}.cpuprofile`, PROF_SECONDS: "16", LOG_LEVEL: "warn" } });
const headers = { authorization: `ApiKey ${server.apiKey}`, "content-type": "application/json" };
const post = async (path: string, body: unknown) => (await (await fetch(server.baseUrl + path, { method: "POST", headers, body: JSON.stringify(body) })).json()) as any;
const created = await post("/api/applications/", { application: { slug: "p-app", name: "P", data: { parameters: { a: 1 } } } });
const slug = created.application_revision.slug;
const variant = created.application_variant.id;
const m =
  kind === "commit"
    ? await measure({ baseUrl: server.baseUrl, method: "POST", path: "/api/applications/revisions/commit", headers, connections: 1, durationS: 15, warmupS: 2, expectStatus: 200, next: (i) => ({ body: { application_revision_commit: { application_variant_id: variant, message: `m ${i}`, data: { parameters: { n: i } } } } }) })
    : await measure({ baseUrl: server.baseUrl, method: "POST", path: "/api/applications/revisions/retrieve", headers, body: { application_revision_ref: { slug } }, connections: 10, durationS: 15, warmupS: 2, expectStatus: 200 });
console.log(kind, m.requests_per_sec, m.latency_ms);
await server.stop();

