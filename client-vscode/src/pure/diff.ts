// `lsp-agents diff` in the editor: the answer's shape (the CLI's `--format json`), the revisions the
// picker offers, the view (the content of `--format markdown`: the one-line summary first, then the
// findings and a section per harness, in the same words), and what the tree says of the active
// file's launch directory. Every name from the workspace is escaped: it is untrusted.
import { escape, pathText } from "./html";
import type { Total } from "./protocol";

export interface DiffSide {
  name: string;
  commit: string | null;
}

export interface Cut {
  at: number;
  line: number;
  section: string | null;
  sections_dropped: string[];
}

export interface Sent {
  bytes: number;
  tokens: number;
  cut: Cut | null;
}

/** A file's standing when not sent: null when the harness does not consider it at all. */
export type Standing = { reason: string | null; kind: string; related: string | null } | null;

export interface PromptChange {
  harness: string;
  launch_directories: string[];
  before: Total;
  after: Total;
  added: (Sent & { path: string })[];
  removed: (Sent & { path: string; now: Standing })[];
  resized: { path: string; before: Sent; after: Sent; sections_lost: string[]; sections_regained: string[] }[];
  reordered: string[];
  skipped: { path: string; before: Standing; after: Standing }[];
}

export interface DiffFinding {
  code: string;
  severity: string;
  path: string;
  range: { start: { line: number; character: number } };
  message: string;
}

export interface DiffAnswer {
  root: string;
  base: DiffSide;
  head: DiffSide;
  harnesses: string[];
  summary: { prompts_changed: number; harnesses_changed: string[]; findings_introduced: number; findings_resolved: number };
  changes: PromptChange[];
  findings: { introduced: DiffFinding[]; resolved: DiffFinding[] };
}

/** `lspAgents.diff`'s answer: the comparison, or why there is none. */
export type DiffReply = DiffAnswer | { error: string };

export interface Revision {
  name: string;
  kind: "commit" | "branch" | "tag";
  subject: string;
}

/** `lspAgents.revisions`' answer. */
export type RevisionsReply = { revisions: Revision[] } | { error: string };

export interface RevisionItem {
  label: string;
  description: string;
  detail?: string;
}

const KIND_WORDS: Record<Revision["kind"], string> = { commit: "commit", branch: "branch", tag: "tag" };

/** The picker's rows: each revision with its kind and its commit's first line. */
export function revisionItems(revisions: Revision[]): RevisionItem[] {
  return revisions.map((r) => ({ label: r.name, description: KIND_WORDS[r.kind] ?? r.kind, detail: r.subject || undefined }));
}

/** A revision typed by the user, or why it cannot be one (git would read a leading `-` as an option). */
export function typedRevision(value: string): { name: string } | { problem: string } {
  const name = value.trim();
  if (!name) {
    return { problem: "Type a revision: a branch, a tag, a commit or HEAD~2." };
  }
  if (name.startsWith("-")) {
    return { problem: "A revision does not start with \"-\"." };
  }
  return { name };
}

const en = (value: number) => value.toLocaleString("en-US");
const s = (value: number) => (value === 1 ? "" : "s");

function sideName(side: DiffSide): string {
  return side.commit ? `${side.name} (${side.commit.slice(0, 7)})` : side.name;
}

/** The summary line, word for word as the CLI's (`diff_render.summary_line`). */
export function summaryLine(answer: DiffAnswer): string {
  const { summary } = answer;
  const prompts = summary.prompts_changed;
  const changed = prompts ? `${prompts} prompt${s(prompts)} change (${summary.harnesses_changed.join(", ")})` : "no prompt changes";
  const found = `${summary.findings_introduced} finding${s(summary.findings_introduced)} introduced`;
  return `${sideName(answer.base)} → ${sideName(answer.head)}: ${changed}; ${found}, ${summary.findings_resolved} resolved`;
}

function amount(sent: { bytes: number; tokens: number }): string {
  return `${en(sent.bytes)} B (~${en(sent.tokens)} tokens)`;
}

function totals(total: Total): string {
  return `${total.files} file${s(total.files)}, ${amount(total)}`;
}

const code = (text: string) => `<code>${pathText(text)}</code>`;

function standing(now: Standing): string {
  if (now === null) {
    return "not considered";
  }
  if (now.kind === "loaded") {
    return "sent";
  }
  return `${escape(now.kind)} (${escape(now.reason ?? "")})${now.related ? ` by ${code(now.related)}` : ""}`;
}

function cutWords(cut: Cut | null): string {
  return cut === null ? "whole" : `cut at line ${cut.line}${cut.section ? ` in ${code(cut.section)}` : ""}`;
}

/** One row per file whose standing changes: symbol, path, bytes sent, note (HTML), as `diff_render.rows`. */
export function changeRows(change: PromptChange): [string, string, string, string][] {
  const rows: [string, string, string, string][] = [];
  for (const item of change.added) {
    rows.push(["+", item.path, amount(item), item.cut ? cutWords(item.cut) : ""]);
  }
  for (const item of change.removed) {
    rows.push(["-", item.path, amount(item), `now ${standing(item.now)}`]);
  }
  for (const item of change.resized) {
    const notes = [];
    if (JSON.stringify(item.before.cut) !== JSON.stringify(item.after.cut)) {
      notes.push(`${cutWords(item.before.cut)} → ${cutWords(item.after.cut)}`);
    }
    if (item.sections_lost.length) {
      notes.push(`no longer sent: ${item.sections_lost.map(code).join(", ")}`);
    }
    if (item.sections_regained.length) {
      notes.push(`sent again: ${item.sections_regained.map(code).join(", ")}`);
    }
    rows.push(["~", item.path, `${amount(item.before)} → ${amount(item.after)}`, notes.join("; ")]);
  }
  for (const item of change.skipped) {
    rows.push(["·", item.path, "not sent", `${standing(item.before)} → ${standing(item.after)}`]);
  }
  return rows;
}

function launched(change: PromptChange): string {
  const shown = change.launch_directories.slice(0, 10).map((d) => (d === "." ? "the workspace root" : code(d))).join(", ");
  const more = change.launch_directories.length > 10 ? ` and ${change.launch_directories.length - 10} more` : "";
  return `Launched from ${shown}${more}: ${totals(change.before)} → ${totals(change.after)}`;
}

function harnessSection(harness: string, changes: PromptChange[]): string {
  const count = changes.reduce((sum, c) => sum + c.launch_directories.length, 0);
  const groups = changes.map((change) => {
    const rows = changeRows(change).map(([symbol, path, sent, note]) =>
      `<tr><td class="symbol">${symbol}</td><td>${code(path)}</td><td class="size">${sent}</td><td>${note}</td></tr>`);
    const table = rows.length
      ? `<table class="diff"><thead><tr><th class="symbol"></th><th>File</th><th class="size">Sent</th><th>Change</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
      : "";
    const order = change.reordered.length ? `<p>New order: ${change.reordered.map(code).join(", ")}</p>` : "";
    return `<p class="launched">${launched(change)}</p>${table}${order}`;
  });
  return `<details open class="harness" data-harness="${escape(harness)}"><summary><b>${escape(harness)}</b>: `
    + `${count} launch director${count === 1 ? "y" : "ies"}</summary>${groups.join("")}</details>`;
}

function findingItem(word: string, finding: DiffFinding): string {
  const where = `${finding.path}:${finding.range.start.line + 1}`;
  return `<li>${word}: <b>${escape(finding.severity)}</b> <code>${escape(finding.code)}</code> ${code(where)}: ${escape(finding.message)}</li>`;
}

function findingsSection(findings: DiffAnswer["findings"]): string {
  const { introduced, resolved } = findings;
  if (introduced.length + resolved.length === 0) {
    return "";
  }
  const items = [...introduced.map((f) => findingItem("new", f)), ...resolved.map((f) => findingItem("gone", f))];
  return `<details open class="findings"><summary>Findings: ${introduced.length} introduced, ${resolved.length} resolved</summary>`
    + `<ul>${items.join("")}</ul></details>`;
}

/** The comparison view: the summary line, the findings, then each harness whose prompt changes. */
export function diffBody(answer: DiffAnswer): string {
  const byHarness = new Map<string, PromptChange[]>();
  for (const change of answer.changes) {
    byHarness.set(change.harness, [...(byHarness.get(change.harness) ?? []), change]);
  }
  const sections = [...byHarness].map(([harness, changes]) => harnessSection(harness, changes));
  return `<header><h1>Compared with ${escape(sideName(answer.base))}</h1>`
    + `<p class="meta">In <code>${pathText(answer.root)}</code> · harnesses compared: ${escape(answer.harnesses.join(", ") || "none")}</p>`
    + `<p class="total" id="summary">${escape(summaryLine(answer))}</p></header>`
    + findingsSection(answer.findings)
    + (sections.length ? sections.join("") : `<p class="empty">No harness's prompt changes.</p>`)
    + `<footer>+ now sent · - no longer sent · ~ sent with other bytes or another cut · · not sent either way, for another reason. `
    + `The same comparison as <code>lsp-agents diff ${escape(answer.base.name)}</code>.</footer>`;
}

/**
 * What the uncommitted change does to the prompts sent from one launch directory (root-relative,
 * "." for the root): the harnesses whose prompt changes there, and the findings it introduces.
 * Null when nothing changes: the tree then shows no "Changed since HEAD" node.
 */
export function changedHere(answer: DiffAnswer, launchDirectory: string): { harnesses: string[]; rows: number; findings: number } | null {
  const here = answer.changes.filter((c) => c.launch_directories.includes(launchDirectory));
  const findings = answer.findings.introduced.length;
  if (here.length === 0 && findings === 0) {
    return null;
  }
  return { harnesses: here.map((c) => c.harness), rows: here.reduce((sum, c) => sum + changeRows(c).length, 0), findings };
}
