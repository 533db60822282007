/**
 * Starts the benchmark floor (bench/floor-server/main.ts) in its own process, as the app runs in
 * its own, and measures it.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { log } from "./benchmark";
import { measure, type Measurement, type MeasureOptions } from "./measure";
import { freePort, ROOT } from "./next-server";

export interface FloorServer {
  baseUrl: string;
  pid: number;
  measure(options: Omit<MeasureOptions, "baseUrl">): Promise<Measurement>;
  stop(): Promise<void>;
}

export async function startFloorServer(options: {
  databaseUrl: string;
  /** The bytes the app answered for the request the floor stands in for. */
  response: Buffer;
  /** The revision the floor looks up by slug. */
  slug: string;
  /** The bytes the app answered a commit, which `POST /floor/commit` writes. */
  commitResponse?: Buffer;
  /** `POST /floor/<kind>`: the app's lookup query for that kind of retrieve, its values, and the app's answer. */
  lookups?: Record<string, { query: string; values: Record<string, unknown>; response: Buffer }>;
}): Promise<FloorServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench", "floor-server", "main.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      FLOOR_DATABASE_URL: options.databaseUrl,
      FLOOR_PORT: String(port),
      FLOOR_RESPONSE_BASE64: options.response.toString("base64"),
      FLOOR_SLUG: options.slug,
      ...(options.commitResponse && { FLOOR_COMMIT_RESPONSE_BASE64: options.commitResponse.toString("base64") }),
      FLOOR_LOOKUPS: JSON.stringify(
        Object.fromEntries(
          Object.entries(options.lookups ?? {}).map(([kind, l]) => [
            kind,
            { query: l.query, values: l.values, response: l.response.toString("base64") },
          ]),
        ),
      ),
    },
    stdio: ["ignore", "pipe", "inherit"],
    // Its own session, as the app's server has (next-server.ts): with the kernel's autogroup
    // scheduling each session shares the CPU as one group, so a floor left in the bench's session
    // (beside the load generator) got a smaller share than the app on a loaded machine, and
    // ratios rose past 1 with the load (3 to 5 at load 38).
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("floor ready") && resolve());
    child.once("exit", (code) => reject(new Error(`the floor server exited (code ${code}) before it was ready`)));
  });
  log(`floor server ready on ${baseUrl}`);
  return {
    baseUrl,
    pid: child.pid!,
    measure: (measureOptions) => measure({ ...measureOptions, baseUrl, serverPid: child.pid }),
    stop: async () => {
      process.removeListener("exit", killOnExit);
      child.kill("SIGTERM");
      await exited;
    },
  };
}
