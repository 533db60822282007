import { z } from "zod";

/** RFC 9110 field-name token: anything else would make the HTTP client throw at run time. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function httpHeaderName() {
  return z.string().regex(TOKEN, "is not a valid HTTP header name");
}
