import { parseDelimited } from "./delimited-text";

/**
 * A spreadsheet puts a selection on the clipboard as tab-separated rows (quoted where a cell holds
 * a line break). Plain text without tabs pastes as one cell per line; a single line as one cell.
 */
export function clipboardGrid(text: string): string[][] {
  if (text === "") return [];
  if (!text.includes("\t") && !text.includes("\n")) return [[text]];
  return parseDelimited(text, "\t");
}
