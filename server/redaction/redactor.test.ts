import { describe, expect, it } from "vitest";
import { ibanValid, luhnValid } from "./detectors";
import { Redactor } from "./redactor";

const all = new Redactor({
  kinds: ["email", "phone", "card", "iban", "secret"],
  patterns: [{ name: "order", pattern: "ORD-[0-9]{6}" }],
});

describe("Redactor", () => {
  it("finds each built-in kind and the project's own pattern", () => {
    expect(
      all.text(
        "Mail ada@example.co.uk or call +44 20 7946 0958 / (555) 123-4567; card 4111 1111 1111 1111; IBAN GB82 WEST 1234 5698 7654 32; key sk-ant-api03-abcdefghijklmnopqrstuvwx; Authorization: Bearer abcdefghijklmnop1234; order ORD-123456",
      ),
    ).toBe(
      "Mail [redacted:email] or call [redacted:phone] / [redacted:phone]; card [redacted:card]; IBAN [redacted:iban]; key [redacted:secret]; Authorization: [redacted:secret]; order [redacted:order]",
    );
  });

  it("leaves numbers that fail their checksum, and ordinary text", () => {
    expect(all.text("card 4111 1111 1111 1112, id 1234567890123, 2026-11-27")).toBe(
      "card 4111 1111 1111 1112, id 1234567890123, 2026-11-27",
    );
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(ibanValid("GB82WEST12345698765432")).toBe(true);
    expect(ibanValid("GB82WEST12345698765433")).toBe(false);
  });

  it("redacts private keys and every string of a nested value, keeping keys", () => {
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----";
    expect(all.value({ "ada@example.com": [pem, 3, { note: "to bob@example.com" }] })).toEqual({
      "ada@example.com": ["[redacted:secret]", 3, { note: "to [redacted:email]" }],
    });
  });

  it("refuses a pattern RE2 cannot run in linear time", () => {
    expect(() => new Redactor({ kinds: [], patterns: [{ name: "x", pattern: "(a)\\1" }] })).toThrow(/not valid RE2/);
  });
});
