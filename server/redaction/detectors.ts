import { RE2JS } from "re2js";

/** The kinds of value the redactor finds without being told (each can be turned off per project). */
export const BUILT_IN_KINDS = ["email", "phone", "card", "iban", "secret"] as const;
export type BuiltInKind = (typeof BUILT_IN_KINDS)[number];

export interface Detector {
  kind: string;
  pattern: RE2JS;
  /** A match the pattern found that is not really of this kind (a card number failing Luhn). */
  accept?: (match: string) => boolean;
}

/** Luhn's checksum over the digits of `text`: what every payment card number satisfies. */
export function luhnValid(text: string): boolean {
  const digits = text.replace(/\D/g, "");
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** ISO 13616: the IBAN moved and read as a number is 1 modulo 97. */
export function ibanValid(text: string): boolean {
  const iban = text.replace(/\s/g, "").toUpperCase();
  if (iban.length < 15 || iban.length > 34) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const digit of value) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

// All built-in patterns are RE2 (linear in the text), like every project pattern.
const SECRET_SOURCES = [
  String.raw`sk-ant-[A-Za-z0-9_\-]{20,}`, // Anthropic
  String.raw`sk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{20,}`, // OpenAI
  String.raw`sk_[A-Za-z0-9_\-]{20,}`, // this service's keys, Stripe
  String.raw`(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}`, // GitHub
  String.raw`xox[abposr]-[A-Za-z0-9\-]{10,}`, // Slack
  String.raw`AKIA[0-9A-Z]{16}`, // AWS access key id
  String.raw`AIza[0-9A-Za-z_\-]{35}`, // Google API key
  String.raw`whsec_[A-Za-z0-9_\-]{16,}`, // webhook secrets
  String.raw`(?i:bearer)\s+[A-Za-z0-9._~+/\-]{16,}=*`, // bearer tokens
  String.raw`eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`, // JWTs
  String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`, // PEM private keys
];

export const BUILT_IN_DETECTORS: Record<BuiltInKind, Detector> = {
  secret: { kind: "secret", pattern: RE2JS.compile(SECRET_SOURCES.join("|")) },
  email: {
    kind: "email",
    pattern: RE2JS.compile(String.raw`[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}`),
  },
  iban: {
    kind: "iban",
    pattern: RE2JS.compile(String.raw`\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b`),
    accept: ibanValid,
  },
  card: {
    kind: "card",
    pattern: RE2JS.compile(String.raw`\b[0-9](?:[ \-]?[0-9]){12,18}\b`),
    accept: luhnValid,
  },
  phone: {
    kind: "phone",
    // An international number (+ and 8 to 15 digits), or a grouped national one like (555) 123-4567.
    pattern: RE2JS.compile(String.raw`\+[1-9](?:[ .\-]?[0-9]){7,14}\b|\(?\b[0-9]{3}\)?[ .\-][0-9]{3}[ .\-][0-9]{4}\b`),
  },
};
