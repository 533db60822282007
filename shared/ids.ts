/**
 * A UUID in its canonical text form, any version, either case: what an id in a URL or a body must
 * look like before it is worth a query. The one copy of the pattern (`npm run lint` refuses
 * another); the browser and the server both import it.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUIDv7 as `newId` (server/core/ids.ts) mints it: lower case, version 7, RFC 9562 variant. */
export const UUID_V7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
