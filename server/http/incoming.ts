/** What the router reads of a request, whichever door it came through. */
export interface Incoming {
  method: string;
  pathname: string;
  /** The query string without its `?` ("" when there is none). */
  search: string;
  header(name: string): string | null;
  /** The body, at most `limit` bytes (else PayloadTooLargeError); undefined when there is none. */
  readBody(limit: number): Promise<Buffer | undefined>;
  /**
   * The request as a web `Request`, for handlers that read it themselves (streams, raw bodies,
   * cookies): built on first use by the node:http door, so a plain JSON route never pays for it.
   */
  readonly request: Request;
  /** The socket's peer address, when the door has a socket (node:http). */
  readonly peer?: string;
}

/** Anything with `get(name)`: web `Headers`, or the node:http door's view of the raw headers. */
export interface HeaderReader {
  get(name: string): string | null;
}
