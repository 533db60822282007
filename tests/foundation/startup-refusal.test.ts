import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { defaultAccountBanner } from "@/server/boot/app";
import { exitOnStartupRefusal } from "@/server/boot/startup-refusal";
import { createSecretBox } from "@/server/encryption";
import { createTestApp, type TestApp } from "../helpers/test-app";

// The start-up messages. A second instance started without the shared APP_SECRET_KEY is refused with the one line that
// says what to do, not an unhandled rejection's stack trace (server.ts and the worker process
// end their start-up through exitOnStartupRefusal).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it("a start-up with another secret key ends with one clear line and exit code 1", async () => {
  const printed: string[] = [];
  const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (printed.push(String(chunk)), true));
  const exit = vi.spyOn(process, "exit").mockImplementation((() => {
    throw new Error("exited");
  }) as never);
  try {
    // The database was sealed with the test app's key; this instance brings a key of its own.
    const other = { ...t.context.config, secretKey: randomBytes(32) };
    await expect(createSecretBox(other, t.context.db).catch(exitOnStartupRefusal)).rejects.toThrow("exited");
    expect(exit).toHaveBeenCalledWith(1);
    expect(printed.join("").trimEnd().split("\n")).toEqual([
      expect.stringMatching(
        /^Start-up refused: The secret key does not match the one this database's secrets were sealed with .*Set APP_SECRET_KEY to the original key/,
      ),
    ]);
    // Anything else is no refusal: it keeps its stack for the operator to report.
    const bug = new TypeError("a bug");
    expect(() => exitOnStartupRefusal(bug)).toThrow(bug);
  } finally {
    write.mockRestore();
    exit.mockRestore();
  }
});

it("the first start prints the default key once", () => {
  const banner = defaultAccountBanner("Default project", "sk_example_secret", "http://127.0.0.1:3000");
  expect(banner.split("sk_example_secret")).toHaveLength(2);
  expect(banner).toContain('Try: curl -H "Authorization: ApiKey <the key above>" http://127.0.0.1:3000/api/keys');
});
