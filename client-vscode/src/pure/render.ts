// Markdown for the read-only `lsp-agents:` documents, from the server's command results.
import * as path from "node:path";
import { approxTokens, displayPath, fileLink, formatBytes, formatTokens } from "./format";
import type { Block, CascadeResult, Candidate, HarnessCascade, PromptResult, RemindersResult } from "./protocol";
import { explainReason } from "./reasons";

interface Row {
  path: string;
  when: string;
  role: string;
  bytes: number;
}

/** A fence longer than any run of backticks inside `text`, so instruction text can never close it. */
export function fenced(text: string, info = "text"): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text.replace(/\n$/, "")}\n${fence}`;
}

/** Reference-style links, so tables stay readable: `[AGENTS.md][1]` … `[1]: file:///…` at the end. */
class Links {
  private readonly urls: string[] = [];

  constructor(
    readonly cwd: string,
    readonly home?: string,
  ) {}

  to(file: string): string {
    const url = fileLink(file);
    const index = this.urls.includes(url) ? this.urls.indexOf(url) : this.urls.push(url) - 1;
    return `[${displayPath(file, this.cwd, this.home).replace(/([[\]|])/g, "\\$1")}][${index + 1}]`;
  }

  definitions(): string[] {
    return this.urls.length ? ["", ...this.urls.map((url, i) => `[${i + 1}]: ${url}`)] : [];
  }
}

function fileTable(rows: Row[], links: Links): string[] {
  if (rows.length === 0) {
    return ["_No instruction file is loaded._"];
  }
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  return [
    "| # | Instruction file | When | Role | Bytes | ~Tokens |",
    "|--:|---|---|---|--:|--:|",
    ...rows.map(
      (row, i) =>
        `| ${i + 1} | ${links.to(row.path)} | ${row.when} | ${row.role} | ${formatBytes(row.bytes)} | ${formatTokens(approxTokens(row.bytes))} |`,
    ),
    `| | **Total: ${rows.length} file${rows.length === 1 ? "" : "s"}** | | | **${formatBytes(total)}** | **~${formatTokens(approxTokens(total))}** |`,
  ];
}

function skipped(files: Candidate[], links: Links): string[] {
  const lines = files
    .filter((file) => !file.loaded || file.truncated_at !== null)
    .map((file) => {
      const why = file.loaded ? `truncated at ${formatBytes(file.truncated_at ?? 0)}` : explainReason(file.reason);
      const related = file.related ? ` (${links.to(file.related)})` : "";
      return `- ${links.to(file.path)} — ${why}${related}`;
    });
  return lines.length ? ["", "## Not loaded, or cut", "", ...lines] : [];
}

function blocks(title: string, items: { label: string; text: string }[]): string[] {
  return items.flatMap((item, i) => ["", `### ${title} ${i + 1} · ${item.label}`, "", fenced(item.text)]);
}

function loadedRows(files: Candidate[], when: string): Row[] {
  return files.filter((file) => file.loaded).map((file) => ({ path: file.path, when, role: file.role, bytes: file.bytes }));
}

function header(title: string, file: string, links: Links): string[] {
  return [`# ${title}`, "", `**File** \`${displayPath(file, links.cwd, links.home)}\` · **launch directory** \`${links.cwd}\``, ""];
}

/** The effective prompt for a file: what loads at session start, then what reading the file adds. */
export function renderPrompt(prompt: PromptResult, reminders: RemindersResult, home?: string): string {
  const readName = path.basename(reminders.read);
  const layers = prompt.layers ?? prompt.eager.map((block) => ({ name: block.placement, text: block.text }));
  const links = new Links(prompt.cwd, home);
  return [
    ...header(`Effective prompt · ${prompt.harness}`, reminders.read, links),
    ...fileTable([...loadedRows(prompt.files, "session start"), ...loadedRows(reminders.files, `on read of ${readName}`)], links),
    ...skipped([...prompt.files, ...reminders.files], links),
    "",
    "## Layers sent at session start",
    ...blocks("Layer", layers.map((layer) => ({ label: layer.name, text: layer.text }))),
    ...remindersSection(reminders, `## Added when the agent reads ${readName}`),
    ...links.definitions(),
    "",
  ].join("\n");
}

function remindersSection(reminders: RemindersResult, title: string): string[] {
  const items = reminders.reminders.map((block: Block) => ({ label: block.placement, text: block.text }));
  return ["", title, ...(items.length ? blocks("Reminder", items) : ["", "_Nothing is added._"])];
}

/** What the harness appends to the tool result when its read tool reads the file. */
export function renderReminders(reminders: RemindersResult, home?: string): string {
  const links = new Links(reminders.cwd, home);
  return [
    ...header(`File reminders · ${reminders.harness}`, reminders.read, links),
    ...fileTable(loadedRows(reminders.files, "on read"), links),
    ...skipped(reminders.files, links),
    ...remindersSection(reminders, "## Appended to the read"),
    ...links.definitions(),
    "",
  ].join("\n");
}

function harnessCell(entry: HarnessCascade, file: string): string {
  const eager = entry.eager.findIndex((item) => item.path === file);
  if (eager >= 0) {
    return `${eager + 1}. start`;
  }
  const onRead = entry.on_read.findIndex((item) => item.path === file);
  if (onRead >= 0) {
    return `${entry.eager.length + onRead + 1}. on read`;
  }
  const skip = entry.not_loaded.find((item) => item.path === file);
  return skip ? `✗ ${skip.reason}` : "";
}

function totalCell(entry: HarnessCascade): string {
  const items = [...entry.eager, ...entry.on_read];
  const tokens = items.reduce((sum, item) => sum + item.tokens, 0);
  return `**${items.length} · ~${formatTokens(tokens)} tok**`;
}

/** Every harness side by side: one row per instruction file, one column per harness. */
export function renderCascade(cascade: CascadeResult, home?: string): string {
  const { cwd, harnesses } = cascade;
  const files: string[] = [];
  for (const entry of harnesses) {
    for (const item of [...entry.eager, ...entry.on_read, ...entry.not_loaded]) {
      if (!files.includes(item.path)) {
        files.push(item.path);
      }
    }
  }
  const names = harnesses.map((entry) => entry.harness + (entry.verified ? "" : " ⚠"));
  const unverified = harnesses.some((entry) => !entry.verified);
  const links = new Links(cwd, home);
  return [
    ...header("Instruction cascade · all harnesses", cascade.file, links),
    `| Instruction file | ${names.join(" | ")} |`,
    `|---|${harnesses.map(() => "---").join("|")}|`,
    ...files.map((file) => `| ${links.to(file)} | ${harnesses.map((entry) => harnessCell(entry, file)).join(" | ")} |`),
    `| **Loaded** | ${harnesses.map(totalCell).join(" | ")} |`,
    "",
    "`N. start`: loaded at session start, in that order · `N. on read`: added when the agent reads the file · `✗ reason`: considered, not loaded.",
    ...(unverified ? ["", "⚠ model not yet verified against the harness's own behaviour."] : []),
    ...links.definitions(),
    "",
  ].join("\n");
}
