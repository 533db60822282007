/** OpenAI clients send `Authorization: Bearer <key>`; the service's own `ApiKey <key>` works too. */
export function bearerAsApiKey(header: string | null): string | null {
  const bearer = header ? /^Bearer\s+(\S+)\s*$/i.exec(header.trim()) : null;
  return bearer ? `ApiKey ${bearer[1]}` : header;
}
