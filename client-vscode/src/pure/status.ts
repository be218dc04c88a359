// The status bar item for the chosen harness and the active file: text, tooltip, accessible label.
import { displayPath, entrySize, plural, sizeLabel, count } from "./format";
import type { HarnessCascade } from "./protocol";

/**
 * Pauses before asking the server again after an answer without a result (its 500 ms budget ran
 * out): a few tries, then the status says so; every completed analysis asks again anyway.
 */
export const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

export interface StatusView {
  text: string;
  /** Markdown. */
  tooltip: string;
  /** What a screen reader says: plain words, no Markdown. */
  label: string;
}

export function statusView(entry: HarnessCascade, cwd: string, fileName: string, home?: string): StatusView {
  const rows = [
    ...entry.eager.map((file) => ({ file, when: "at start" })),
    ...entry.on_read.map((file) => ({ file, when: "on read" })),
  ];
  const lines = rows.map(({ file, when }, i) => `${i + 1}. ${displayPath(file.path, cwd, home)} · ${entrySize(file)} (${when})`);
  const size = sizeLabel(entry.total);
  return {
    text: `$(book) ${entry.harness} · ${plural(entry.total.files, "file")} · ~${count(entry.total.tokens)} tokens`,
    tooltip: [
      `**${entry.harness}** sends ${size} for \`${fileName}\``,
      "",
      ...(lines.length ? lines : ["No instruction file."]),
      "",
      `Click to show the prompt ${entry.harness} sends. Another harness: **lsp-agents: Choose Harness**.`,
    ].join("\n"),
    label: `${entry.harness} sends ${size} for ${fileName}. Click to show the prompt.`,
  };
}

/** While the server is asked again: the file is being computed, never an unexplained "?". */
export function pendingView(harness: string, fileName: string): StatusView {
  const words = `lsp-agents is computing what ${harness} sends for ${fileName}`;
  return {
    text: `$(sync~spin) ${harness}`,
    tooltip: `${words}: the server ran out of time on its first try and is asked again.`,
    label: `${words}.`,
  };
}

/** The server could not answer: what went wrong, and where to read more. */
export function failedView(error: string): StatusView {
  return {
    text: "$(warning) lsp-agents",
    tooltip: `lsp-agents: ${error}. Click to show the output.`,
    label: `lsp-agents: ${error}. Click to show the output.`,
  };
}
