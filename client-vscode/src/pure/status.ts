// The status bar item for the chosen harness and the active file: text, tooltip, accessible label.
import { displayPath, entrySize, plural, sizeLabel, count } from "./format";
import type { HarnessCascade } from "./protocol";

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
