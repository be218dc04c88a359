// HTML of the prompt, reminders and compare views, from the server's answers. Every piece of text
// from the workspace is escaped: instruction files are untrusted, and the page runs a script.
import { displayPath, entrySize, harnessTotal, openLine, sizeLabel, versionNote } from "./format";
import type { Block, CascadeResult, FileEntry, FileUsesResult, HarnessCascade, Layer, RemindersResult, SentFile, SkippedFile } from "./protocol";

export type ViewKind = "prompt" | "reminders" | "cascade";

export interface PageParts {
  title: string;
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

export interface HarnessOption {
  id: string;
  title: string;
}

export interface PromptModel {
  file: string;
  cwd: string;
  home?: string;
  entry: HarnessCascade;
  harnesses: HarnessOption[];
  layers: Layer[];
  reminders: Block[];
  /** What the harness does with the file itself, when it is an instruction file (the hover's words). */
  thisFile?: string;
}

export interface RemindersModel {
  file: string;
  home?: string;
  harnesses: HarnessOption[];
  result: RemindersResult;
}

export interface CascadeModel {
  result: CascadeResult;
  current: string;
  home?: string;
  uses?: FileUsesResult;
}

const PLACEMENTS: Record<string, string> = {
  system: "system prompt",
  "system-message": "system message",
  developer: "developer message",
  user: "user message",
  "tool-result": "tool result",
  tool: "tool description",
  assistant: "assistant message",
};

const LEGEND = "At start: sent with the first request of a session · On read: added when the agent reads the file · "
  + "~tokens: bytes / 4, rounded up per file · Not loaded: found and weighed, not sent";

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/** A path, escaped, that a narrow view wraps after a `/` rather than inside a name. */
export function pathText(path: string): string {
  return escape(path).replace(/\//g, "/<wbr>");
}

function fileLink(path: string, label: string, line = 0): string {
  return `<a href="#" data-open="${escape(path)}" data-line="${line}" title="${escape(path)}">${pathText(label)}</a>`;
}

function harnessSelect(options: HarnessOption[], current: string): string {
  const items = options.map((o) => `<option value="${escape(o.id)}"${o.id === current ? " selected" : ""}>${escape(o.title)}</option>`);
  return `<select id="harness" aria-label="Harness">${items.join("")}</select>`;
}

function button(label: string, show: ViewKind, extra = ""): string {
  return `<button data-show="${show}"${extra}>${escape(label)}</button>`;
}

/** The text sent, escaped, with every loaded file's path made a link to it. */
function linkedText(text: string, files: { path: string; line?: number }[]): string {
  const escaped = escape(text);
  const paths = [...new Set(files.map((f) => escape(f.path)))].sort((a, b) => b.length - a.length);
  if (paths.length === 0) {
    return escaped;
  }
  const pattern = new RegExp(paths.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  return escaped.replace(pattern, (match) => `<a href="#" data-open="${match}" data-line="0">${match}</a>`);
}

function textBlocks(prefix: string, blocks: { title: string; text: string }[], files: { path: string }[]): string {
  return blocks
    .map((block, i) => {
      const id = `${prefix}-${i}`;
      return `<details open><summary><span>${escape(block.title)}</span> <button class="copy" data-copy="${id}">Copy</button></summary>`
        + `<pre id="${id}">${linkedText(block.text, files)}</pre></details>`;
    })
    .join("");
}

function sentRows(rows: { file: SentFile; when: string }[], cwd: string, home?: string): string {
  return rows
    .map(({ file, when }, i) => `<tr><td class="num">${i + 1}</td><td>${fileLink(file.path, displayPath(file.path, cwd, home), openLine(file))}</td>`
      + `<td>${when}</td><td>${escape(file.role)}</td><td class="size">${escape(entrySize(file))}</td></tr>`)
    .join("");
}

function filesTable(rows: { file: SentFile; when: string }[], total: string, cwd: string, home?: string): string {
  if (rows.length === 0) {
    return `<p class="empty">No instruction file is sent.</p>`;
  }
  return `<table class="files"><thead><tr><th class="num">#</th><th>File</th><th>When</th><th>Kind</th><th class="size">Sent</th></tr></thead>`
    + `<tbody>${sentRows(rows, cwd, home)}</tbody>`
    + `<tfoot><tr><td></td><td>Total</td><td></td><td></td><td class="size total">${escape(total)}</td></tr></tfoot></table>`;
}

function skippedList(files: SkippedFile[], cwd: string, home?: string): string {
  if (files.length === 0) {
    return "";
  }
  const items = files.map((f) => {
    const related = f.related ? ` (${fileLink(f.related, displayPath(f.related, cwd, home))})` : "";
    return `<li>${fileLink(f.path, displayPath(f.path, cwd, home))} — ${escape(f.explanation)}${related}</li>`;
  });
  return `<h2>Not loaded</h2><ul class="skipped">${items.join("")}</ul>`;
}

function layerTitle(layer: Layer): string {
  const where = PLACEMENTS[layer.placement] ?? layer.placement;
  const placeholder = layer.source === "placeholder" ? " · placeholder: the vendor's own text is not shown" : "";
  return `${layer.name} · ${where} · ${layer.text.length.toLocaleString("en-US")} characters${placeholder}`;
}

function header(kindLabel: string, select: string, file: string, cwd: string, home?: string): string {
  return `<header><h1>${kindLabel} ${select} <span class="for">for</span> ${fileLink(file, displayPath(file, cwd, home))}</h1>`;
}

/** The prompt a harness sends for a file: the files (at start, on read), what is not loaded, the text. */
export function promptBody(model: PromptModel): string {
  const { entry, cwd, home } = model;
  const rows = [...entry.eager.map((file) => ({ file, when: "at start" })), ...entry.on_read.map((file) => ({ file, when: "on read" }))];
  const files = rows.map((r) => r.file);
  const readName = displayPath(model.file, cwd, home);
  return header("Prompt sent by", harnessSelect(model.harnesses, entry.harness), model.file, cwd, home)
    + `<p class="meta">Launched in <code>${pathText(cwd)}</code> · ${escape(versionNote(entry))}</p>`
    + (model.thisFile ? `<p class="this-file">This file: ${escape(model.thisFile)}</p>` : "")
    + `<p class="actions">${button("Compare harnesses", "cascade")} ${button("Only what a read adds", "reminders")}</p>`
    + `<p class="total" id="total">${escape(sizeLabel(entry.total))}</p></header>`
    + filesTable(rows, sizeLabel(entry.total), cwd, home)
    + skippedList(entry.not_loaded, cwd, home)
    + `<h2>Sent at start</h2>${textBlocks("layer", model.layers.map((l) => ({ title: layerTitle(l), text: l.text })), files)}`
    + `<h2>Added when the agent reads ${pathText(readName)}</h2>`
    + (model.reminders.length
      ? textBlocks("reminder", model.reminders.map((b) => ({ title: PLACEMENTS[b.placement] ?? b.placement, text: b.text })), files)
      : `<p class="empty">Nothing is added.</p>`)
    + `<footer>${escape(LEGEND)}</footer>`;
}

function asSent(file: FileEntry): SentFile {
  return { path: file.path, role: file.role, bytes: file.bytes, tokens: file.tokens, size: file.size,
    truncated_at: file.truncated_at, truncated_line: file.truncated_line };
}

function asSkipped(file: FileEntry): SkippedFile {
  return { path: file.path, role: file.role, size: file.size, reason: file.reason ?? "", explanation: file.explanation ?? "not loaded", related: file.related };
}

/** What a harness adds when its read tool reads the file. */
export function remindersBody(model: RemindersModel): string {
  const { result, home } = model;
  const sent = result.files.filter((f) => f.loaded).map((file) => ({ file: asSent(file), when: "on read" }));
  return header("Added when", harnessSelect(model.harnesses, result.harness), model.file, result.cwd, home).replace("</h1>", " is read</h1>")
    + `<p class="meta">Launched in <code>${pathText(result.cwd)}</code></p>`
    + `<p class="actions">${button("Whole prompt", "prompt")} ${button("Compare harnesses", "cascade")}</p>`
    + `<p class="total" id="total">${escape(sizeLabel(result.total))}</p></header>`
    + filesTable(sent, sizeLabel(result.total), result.cwd, home)
    + skippedList(result.files.filter((f) => !f.loaded).map(asSkipped), result.cwd, home)
    + `<h2>Appended to the read</h2>`
    + (result.reminders.length
      ? textBlocks("reminder", result.reminders.map((b) => ({ title: PLACEMENTS[b.placement] ?? b.placement, text: b.text })), sent.map((s) => s.file))
      : `<p class="empty">Nothing is added.</p>`)
    + `<footer>${escape(LEGEND)}</footer>`;
}

function fileList(files: SentFile[], cwd: string, home?: string): string {
  if (files.length === 0) {
    return "";
  }
  const items = files.map((f) => `<li>${fileLink(f.path, displayPath(f.path, cwd, home), openLine(f))} <span class="size">${escape(entrySize(f))}</span></li>`);
  return `<ol>${items.join("")}</ol>`;
}

function skippedCell(files: SkippedFile[], cwd: string, home?: string): string {
  const items = files.map((f) => `<li title="${escape(f.explanation)}">${fileLink(f.path, displayPath(f.path, cwd, home))} <span class="why">${escape(f.explanation)}</span></li>`);
  return items.length ? `<ul>${items.join("")}</ul>` : "";
}

/** Every harness side by side, one row each, so the view fits any width. */
export function cascadeBody(model: CascadeModel): string {
  const { result, home } = model;
  const rows = result.harnesses.map((entry) => {
    const current = entry.harness === model.current ? ` class="current"` : "";
    const own = model.uses?.harnesses.find((h) => h.harness === entry.harness);
    return `<tr data-harness="${escape(entry.harness)}"${current}><th scope="row">`
      + `<button class="link" data-show="prompt" data-harness="${escape(entry.harness)}">${escape(entry.harness)}</button>`
      + `<div class="meta">${escape(versionNote(entry))}</div><div class="total">${escape(harnessTotal(entry))}</div>`
      + (own ? `<div class="this-file">This file: ${escape(own.summary)}</div>` : "") + `</th>`
      + `<td data-label="At start">${fileList(entry.eager, result.cwd, home)}</td>`
      + `<td data-label="On read">${fileList(entry.on_read, result.cwd, home)}</td>`
      + `<td data-label="Not loaded">${skippedCell(entry.not_loaded, result.cwd, home)}</td></tr>`;
  });
  return `<header><h1>What each harness sends for ${fileLink(result.file, displayPath(result.file, result.cwd, home))}</h1>`
    + `<p class="meta">Launched in <code>${pathText(result.cwd)}</code> · click a harness for its whole prompt</p></header>`
    + `<table class="compare"><thead><tr><th>Harness</th><th>At start</th><th>On read</th><th>Not loaded</th></tr></thead>`
    + `<tbody>${rows.join("")}</tbody></table><footer>${escape(LEGEND)}</footer>`;
}

/** A page with a strict content security policy: the extension's own style and script only. */
export function page(parts: PageParts, body: string): string {
  const csp = `default-src 'none'; style-src ${parts.cspSource}; script-src 'nonce-${parts.nonce}'; img-src ${parts.cspSource};`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">`
    + `<meta http-equiv="Content-Security-Policy" content="${csp}">`
    + `<meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<link rel="stylesheet" href="${escape(parts.styleUri)}"><title>${escape(parts.title)}</title></head>`
    + `<body>${body}<script nonce="${parts.nonce}" src="${escape(parts.scriptUri)}"></script></body></html>`;
}
