/** One problem with the template, at a path in the server's format (`tools[0].name`; "" is the root). */
export interface TemplateIssue {
  path: string;
  message: string;
  severity: "error" | "warning";
  /**
   * "schema": the catalog's JSON Schema, checked in the browser; "server": the server's verdict;
   * "syntax": the JSON text does not parse (then `line` says where).
   */
  source: "schema" | "server" | "syntax";
  line?: number;
}
