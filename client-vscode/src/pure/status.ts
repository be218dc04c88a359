// The status bar item's text and tooltip for the default harness's cascade of the active file.
import { displayPath, formatTokens } from "./format";
import type { HarnessCascade } from "./protocol";

export interface StatusView {
  text: string;
  tooltip: string;
}

export function statusView(entry: HarnessCascade, cwd: string, home?: string): StatusView {
  const items = [...entry.eager, ...entry.on_read];
  const tokens = items.reduce((sum, item) => sum + item.tokens, 0);
  const lines = [
    ...entry.eager.map((item) => `- ${displayPath(item.path, cwd, home)} · ~${formatTokens(item.tokens)} tok`),
    ...entry.on_read.map((item) => `- ${displayPath(item.path, cwd, home)} · ~${formatTokens(item.tokens)} tok (on read)`),
  ];
  return {
    text: `$(book) ${items.length} · ${formatTokens(tokens)} tok`,
    tooltip: [`**${entry.harness}** loads ${items.length} instruction file${items.length === 1 ? "" : "s"} for this file:`, "", ...lines, "", "Click: Show Effective Prompt"].join("\n"),
  };
}
