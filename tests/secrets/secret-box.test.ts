import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import {
  createSecretBox,
  loadOrCreateKeyFile,
  SecretBox,
  SecretKeyMismatchError,
  verifySecretKey,
} from "@/server/encryption";
import { openTestDatabase } from "../helpers/test-database";

describe("SecretBox", () => {
  const box = new SecretBox(randomBytes(32));

  it("round-trips, and seals the same plaintext differently each time", () => {
    const a = box.seal("whsec_abc");
    const b = box.seal("whsec_abc");
    expect(a).not.toBe(b);
    expect(a).not.toContain("whsec_abc");
    expect(a.startsWith(`v1.${box.keyId}.`)).toBe(true);
    expect(box.open(a)).toBe("whsec_abc");
    expect(box.open(box.seal(""))).toBe("");
    expect(box.open(box.seal("ünïcødé ✓"))).toBe("ünïcødé ✓");
  });

  it("a value sealed under another key fails with a clear error, not garbage", () => {
    const other = new SecretBox(randomBytes(32));
    expect(() => other.open(box.seal("x"))).toThrow(SecretKeyMismatchError);
    expect(() => other.open(box.seal("x"))).toThrow(/sealed under key .* APP_SECRET_KEY changed/);
  });

  it("detects tampering, including a forged key id", () => {
    const sealed = box.seal("secret");
    const [v, kid, data] = sealed.split(".");
    const bytes = Buffer.from(data, "base64url");
    bytes[bytes.length - 20] ^= 1;
    expect(() => box.open(`${v}.${kid}.${bytes.toString("base64url")}`)).toThrow(/failed authentication/);
    expect(() => box.open("plain text")).toThrow(/Not a sealed secret/);
  });
});

describe("APP_SECRET_KEY configuration", () => {
  const key = randomBytes(32);
  it.each([
    ["hex", key.toString("hex")],
    ["base64", key.toString("base64")],
    ["base64url", key.toString("base64url")],
  ])("accepts a %s key", (_, value) => {
    expect(loadConfig({ APP_SECRET_KEY: value }).secretKey).toEqual(key);
  });

  it.each(["short", randomBytes(16).toString("hex"), randomBytes(31).toString("base64"), "z".repeat(64)])(
    "rejects %s",
    (value) => {
      expect(() => loadConfig({ APP_SECRET_KEY: value })).toThrow(/APP_SECRET_KEY: APP_SECRET_KEY must be 32 bytes/);
    },
  );
});

describe("key file and boot check", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-key-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it("creates a 0600 key file once and reads it back afterwards", () => {
    const dir = path.join(tempDir(), "nested");
    const first = loadOrCreateKeyFile(dir);
    expect(first.created).toBe(true);
    expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
    const second = loadOrCreateKeyFile(dir);
    expect(second.created).toBe(false);
    expect(second.key).toEqual(first.key);
  });

  it("a broken key file is a clear error", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "secret.key"), "nope");
    expect(() => loadOrCreateKeyFile(dir)).toThrow(/does not hold a 32-byte key/);
  });

  it("a wrong key is refused at boot; the right one passes", async () => {
    const database = await openTestDatabase();
    try {
      const dataDir = tempDir();
      const config = loadConfig({ DATA_DIR: dataDir });
      const box = await createSecretBox(config, database.db);
      // The same key file passes on the next boot.
      await expect(createSecretBox(config, database.db)).resolves.toBeInstanceOf(SecretBox);
      expect(box.open((await createSecretBox(config, database.db)).seal("x"))).toBe("x");
      const wrong = loadConfig({ DATA_DIR: dataDir, APP_SECRET_KEY: randomBytes(32).toString("hex") });
      await expect(createSecretBox(wrong, database.db)).rejects.toThrow(
        /does not match the one this database's secrets were sealed with/,
      );
      await expect(verifySecretKey(database.db, new SecretBox(randomBytes(32)))).rejects.toThrow(
        SecretKeyMismatchError,
      );
    } finally {
      await database.close();
    }
  });
});
