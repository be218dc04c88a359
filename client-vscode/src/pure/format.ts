// Small text helpers shared by the Markdown views and the status bar.
import * as path from "node:path";

/** About four characters a token: the same rule of thumb as the server's `approx_tokens`. */
export function approxTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** 950 → "950", 2_140 → "2.1k", 12_400 → "12k", 1_250_000 → "1.3M". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) {
    return String(tokens);
  }
  const [value, unit] = tokens < 1_000_000 ? [tokens / 1000, "k"] : [tokens / 1_000_000, "M"];
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, "") : Math.round(value)}${unit}`;
}

/** 578 → "578 B", 2048 → "2.0 KiB", 3_500_000 → "3.3 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** A path as the user reads it: relative to the launch directory when inside it, `~/…` under home. */
export function displayPath(file: string, cwd: string, home?: string): string {
  const relative = path.relative(cwd, file);
  if (relative && !relative.startsWith("..") && !path.isAbsolute(relative)) {
    return relative;
  }
  if (home && file.startsWith(home + path.sep)) {
    return "~" + file.slice(home.length);
  }
  return file;
}

/** A `file:` URI for a Markdown link (no vscode import: encoded by hand, POSIX or Windows paths). */
export function fileLink(file: string): string {
  const slashed = file.replace(/\\/g, "/");
  const absolute = slashed.startsWith("/") ? slashed : "/" + slashed;
  return "file://" + absolute.split("/").map(encodeURIComponent).join("/").replace(/^\/([A-Za-z])%3A/, "/$1:");
}
