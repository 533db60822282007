import fs from "node:fs";
import path from "node:path";
import { Session } from "node:inspector/promises";

/**
 * Runs `work` under V8's CPU profiler when `dir` is set and writes `<dir>/<name>.cpuprofile`
 * (Chrome DevTools opens it): one phase of the bench, not the whole process's life.
 */
export async function profiled<T>(dir: string | undefined, name: string, work: () => Promise<T>): Promise<T> {
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await work();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  }
}
