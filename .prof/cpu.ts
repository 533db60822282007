import { measure } from "../bench/lib/measure";
import { startNextServer } from "../bench/lib/next-server";
const workers = process.argv[2] ?? "in-process";
const server = await startNextServer({ databaseUrl: "postgres://postgres@127.0.0.1:5432/test", env: { LOG_LEVEL: "warn", WORKERS: workers } });
const headers = { authorization: `ApiKey ${server.apiKey}`, "content-type": "application/json" };
const post = async (path: string, body: unknown) => (await (await fetch(server.baseUrl + path, { method: "POST", headers, body: JSON.stringify(body) })).json()) as any;
const created = await post("/api/applications/", { application: { slug: "p-app", name: "P", data: { parameters: { a: 1 } } } });
const slug = created.application_revision.slug;
for (let r = 0; r < 3; r++) {
  const m = await measure({ baseUrl: server.baseUrl, serverPid: server.pid, method: "POST", path: "/api/applications/revisions/retrieve", headers, body: { application_revision_ref: { slug } }, connections: 10, durationS: 4, warmupS: r === 0 ? 2 : 0, expectStatus: 200 });
  console.log(workers, m.requests_per_sec, m.server_cpu_ms_per_request);
}
await server.stop();
