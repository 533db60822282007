/**
 * A bash script as one command line for Daytona's toolbox. Its `/process/execute` runs no shell:
 * it splits the line on spaces, honouring quotes but no escapes. So the script (environment
 * exports, memory cap, then the command) and its stdin travel base64-encoded inside one
 * single-quoted `bash -c` argument, whatever characters they hold.
 */
export function daytonaCommand(
  command: string,
  options: { env?: Record<string, string>; stdin?: string; memoryMb?: number },
): string {
  const lines = Object.entries(options.env ?? {}).map(([name, value]) => `export ${name}=${shellQuote(value)}`);
  // Virtual memory, in KiB, for this command and its children.
  if (options.memoryMb !== undefined) lines.push(`ulimit -v ${options.memoryMb * 1024}`);
  lines.push(command);
  const stdin = options.stdin === undefined ? "/dev/null" : `<(echo ${base64(options.stdin)} | base64 -d)`;
  return `bash -c 'source <(echo ${base64(`${lines.join("\n")}\n`)} | base64 -d) < ${stdin}'`;
}

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
