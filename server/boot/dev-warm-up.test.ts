import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { warmUpDevServer } from "./dev-warm-up";

describe("warmUpDevServer", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(status: (path: string) => number): Promise<{ origin: string; asked: string[] }> {
    const asked: string[] = [];
    server = createServer((req, res) => {
      asked.push(req.url!);
      res.writeHead(status(req.url!), req.url === "/" ? { location: "/sign-in" } : {}).end("ok");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
  }

  it("asks for the first pages, following the landing page's redirect, and says when they answer", async () => {
    const { origin, asked } = await serve((path) => (path === "/" ? 307 : 200));
    const said: string[] = [];
    let clock = 0;
    await warmUpDevServer(
      origin,
      (line) => said.push(line),
      () => (clock += 2_000),
    );
    expect(asked).toEqual(["/api/health", "/", "/sign-in"]);
    expect(said[0]).toMatch(/Compiling the playground's first pages/);
    expect(said[1]).toBe(`  Playground ready at ${origin} (first pages compiled in 2 s).`);
  });

  it("does not call the playground ready when a page fails", async () => {
    const { origin } = await serve((path) => (path === "/" ? 500 : 200));
    const said: string[] = [];
    await warmUpDevServer(origin, (line) => said.push(line));
    expect(said.at(-1)).toBe("  / answered 500 while compiling ahead of time: see the error above.");
  });

  it("says a page could not be compiled ahead of time rather than claiming it is ready", async () => {
    const said: string[] = [];
    await warmUpDevServer("http://127.0.0.1:1", (line) => said.push(line));
    expect(said).toHaveLength(2);
    expect(said[1]).toMatch(/Could not compile \/api\/health ahead of time/);
  });
});
