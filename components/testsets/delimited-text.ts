/**
 * RFC 4180 text (CSV, or TSV as spreadsheets put it on the clipboard): quoted fields may hold the
 * delimiter, line breaks and doubled quotes. A trailing line break does not make an empty record.
 */
export function parseDelimited(text: string, delimiter = ","): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"' && field === "") {
      quoted = true;
      i++;
    } else if (c === delimiter) {
      record.push(field);
      field = "";
      i++;
    } else if (c === "\r" || c === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** Quotes a field only when it needs it (delimiter, quote, line break, or spaces at an end). */
export function formatDelimited(records: readonly (readonly string[])[], delimiter = ","): string {
  const needsQuotes = new RegExp(`[${delimiter === "\t" ? "\\t" : delimiter}"\\r\\n]|^\\s|\\s$`);
  const field = (value: string) => (needsQuotes.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  return records.map((record) => record.map(field).join(delimiter)).join("\r\n") + (records.length ? "\r\n" : "");
}
