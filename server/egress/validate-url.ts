import { hostAllowed, type AllowlistEntry } from "./allowlist";
import { addressRefusal } from "./check-address";
import { parseIp } from "./ip-address";

export interface UrlRules {
  allowlist: AllowlistEntry[];
  /** Only `https:` (webhook endpoints); otherwise `http:` is accepted too. */
  httpsOnly?: boolean;
}

/**
 * What can be said about a user-supplied URL without connecting, for a 400 when it is saved:
 * scheme, no credentials, and a literal address or `localhost` that the rules refuse. Names are
 * not resolved here (DNS can change); the guarded fetch checks the address actually connected to.
 */
export function urlRefusal(text: string, rules: UrlRules): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not a valid absolute URL";
  }
  const schemes = rules.httpsOnly ? ["https:"] : ["https:", "http:"];
  if (!schemes.includes(url.protocol)) return rules.httpsOnly ? "must use https" : "must use http or https";
  if (url.username || url.password) return "must not contain credentials";
  if (!url.hostname) return "must have a host";
  const host = url.hostname;
  if (parseIp(host)) {
    const reason = addressRefusal(rules.allowlist, host, host.replace(/^\[|\]$/g, ""));
    return reason ? `is refused: ${reason}` : undefined;
  }
  const name = host.toLowerCase().replace(/\.$/, "");
  if ((name === "localhost" || name.endsWith(".localhost")) && !hostAllowed(rules.allowlist, host)) {
    return `is refused: ${host} is a loopback name`;
  }
  return undefined;
}
