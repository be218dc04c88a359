// Drives code-server's workbench like a user and checks what each surface shows against the CLI's
// answers: the status bar, the prompt, reminders and compare views, the Agent Instructions tree, the
// hover, the Problems pane, the settings page and the output channel; a screenshot of each.
// Usage: node drive.mjs BASE_URL FOLDER SHOTS_DIR EXPECTED_JSON LOGS_DIR
//   EXPECTED_JSON: {"cascade": <lsp-agents cascade FILE --harness all --format json>,
//                   "reminders": {"opencode": <lsp-agents reminders …>, "codex": …}}
import fs from "node:fs";
import path from "node:path";
import { launchBrowser } from "./browser.mjs";
import { extensionLog } from "./logs.mjs";

const [base, folder, shots, expectedFile, logs] = process.argv.slice(2);
const expected = JSON.parse(fs.readFileSync(expectedFile, "utf8"));
const { cascade } = expected;
fs.mkdirSync(shots, { recursive: true });
const t0 = Date.now();
const log = (...args) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...args);
let failures = 0;
const check = (ok, what) => {
  failures += ok ? 0 : 1;
  log(ok ? "PASS" : "FAIL", what);
};
const same = (actual, wanted, what) =>
  check(JSON.stringify(actual) === JSON.stringify(wanted), `${what}: ${JSON.stringify(actual)}${JSON.stringify(actual) === JSON.stringify(wanted) ? "" : ` (expected ${JSON.stringify(wanted)})`}`);

// The oracle: how a total and a file's size read, from the CLI's numbers.
const n = (value) => value.toLocaleString("en-US");
const files = (count) => `${n(count)} file${count === 1 ? "" : "s"}`;
const sizeLabel = (total) => `${files(total.files)} · ${n(total.bytes)} B · ~${n(total.tokens)} tokens`;
const entrySize = (f) => `${n(f.bytes)} B · ~${n(f.tokens)} tokens${f.truncated_at === null ? "" : ` (cut at byte ${n(f.truncated_at)} of ${n(f.size)})`}`;
const rel = (file) => path.relative(cascade.cwd, file);
const entry = (harness) => cascade.harnesses.find((h) => h.harness === harness);
const manifest = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const SOURCE = "packages/api/src/server.test.ts";
const SOURCE_NAME = path.basename(SOURCE);

const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
page.on("pageerror", (error) => log("pageerror:", error.message));

const quickInput = page.locator(".quick-input-widget input");
async function palette(title) {
  await page.keyboard.press("F1");
  await quickInput.waitFor({ state: "visible", timeout: 10_000 });
  await quickInput.fill(">" + title);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press("Enter");
}
/** Where the keyboard is: the focused frame's URL and element (a webview keeps keys to itself). */
const focus = () =>
  Promise.all(page.frames().map((f) => f.evaluate(() => document.hasFocus() && `${document.title || "workbench"}: ${document.activeElement?.className}`).catch(() => "")))
    .then((all) => all.filter(Boolean).join(" | "));
async function openFile(relative) {
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: path.basename(relative) }).first();
  for (let tries = 1; ; tries++) {
    // Keys go to the workbench only when a webview does not hold the focus: click the first
    // group's active tab (which focuses its editor), and let the focus settle (Quick Open closes
    // when it loses the focus).
    const tab = page.locator(".part.editor .editor-group-container").first().locator(".tab.active");
    if (await tab.count()) {
      await tab.click();
      await page.waitForTimeout(500);
    }
    await page.keyboard.press("Control+P");
    if (await quickInput.waitFor({ state: "visible", timeout: 3000 }).then(() => true, () => false)) {
      await quickInput.fill(relative);
      if (await row.waitFor({ timeout: 5000 }).then(() => true, () => false)) {
        break;
      }
    }
    if (tries === 3) {
      throw new Error(`Quick Open did not offer ${relative}; the focus is in ${await focus()}`);
    }
    await page.keyboard.press("Escape");
  }
  await page.keyboard.press("Enter");
  await page.locator(`.editor-group-container.active .tab.active[data-resource-name="${path.basename(relative)}"]`).waitFor({ timeout: 15_000 });
}
async function shot(name) {
  await page.waitForTimeout(800); // notifications and hovers fade in
  await page.screenshot({ path: path.join(shots, name) });
  log("screenshot", name);
}
let failed = 0;
const attempt = (what, run) =>
  run().catch(async (error) => {
    check(false, `${what}: ${error.message.split("\n")[0]}`);
    await page.screenshot({ path: path.join(shots, `failed-${++failed}.png`) }).catch(() => undefined);
  });
const text = (locator) => locator.innerText().then((t) => t.replace(/\s+/g, " ").trim());

/** The frame of the webview whose page title starts with `title`, once it shows `ready`. */
async function view(title, ready = "#total") {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    for (const frame of page.frames()) {
      const shown = await frame.title().catch(() => "");
      if (shown.startsWith(title) && (await frame.locator(ready).count().catch(() => 0)) > 0) {
        return frame;
      }
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`no view "${title}" showing ${ready}`);
}
/** The status bar item of the extension (its accessible label says what the harness sends). */
const statusItem = page.locator(".statusbar-item").filter({ has: page.locator('[aria-label*=" sends "]') }).first();
const statusLabel = () => statusItem.locator('[aria-label*=" sends "]').first().getAttribute("aria-label");

/** The prompt view's file rows: [file, when, size]; its "not loaded" list. */
async function promptRows(frame) {
  const rows = await frame.locator("table.files tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].slice(1, 5).map((td) => td.textContent.trim())));
  return rows.map(([file, when, , size]) => [file, when, size]);
}
const wantedRows = (e) => [...e.eager.map((f) => [rel(f.path), "at start", entrySize(f)]), ...e.on_read.map((f) => [rel(f.path), "on read", entrySize(f)])];

try {
  await page.goto(`${base}/?folder=${encodeURIComponent(folder)}`, { waitUntil: "domcontentloaded" });
  await page.waitForSelector(".monaco-workbench .statusbar", { timeout: 60_000 });
  log("workbench loaded");
  await openFile(SOURCE);

  await attempt("status bar", async () => {
    await statusItem.waitFor({ timeout: 60_000 });
    const opencode = entry("opencode");
    same(await text(statusItem), `opencode · ${files(opencode.total.files)} · ~${n(opencode.total.tokens)} tokens`, "status bar text");
    same(await statusLabel(), `opencode sends ${sizeLabel(opencode.total)} for ${SOURCE_NAME}. Click to show the prompt.`, "status bar accessible label");
    await shot("status-bar.png");
  });

  await attempt("prompt view (a click on the status bar)", async () => {
    await statusItem.click();
    const frame = await view(`Prompt · opencode · ${SOURCE_NAME}`);
    const opencode = entry("opencode");
    same(await text(frame.locator("#total")), sizeLabel(opencode.total), "prompt view total (opencode)");
    same(await promptRows(frame), wantedRows(opencode), "prompt view files (opencode)");
    const skipped = await frame.locator("ul.skipped li").allInnerTexts();
    same(skipped.map((s) => s.split(" — ")[0]), opencode.not_loaded.map((f) => rel(f.path)), "prompt view: not loaded");
    check(skipped.every((s, i) => s.includes(opencode.not_loaded[i].explanation)), `each file not loaded says why: ${skipped[0]}`);
    check((await frame.locator("details pre").count()) > 0, "prompt view shows the text sent");
    await shot("prompt.png");
  });

  await attempt("harness picker inside the view; the status bar follows", async () => {
    const frame = await view(`Prompt · opencode · ${SOURCE_NAME}`);
    await frame.selectOption("#harness", "codex");
    const codexFrame = await view(`Prompt · codex · ${SOURCE_NAME}`);
    const codex = entry("codex");
    same(await text(codexFrame.locator("#total")), sizeLabel(codex.total), "prompt view total (codex)");
    same(await promptRows(codexFrame), wantedRows(codex), "prompt view files (codex, its cut shown once)");
    same(await statusLabel(), `codex sends ${sizeLabel(codex.total)} for ${SOURCE_NAME}. Click to show the prompt.`, "status bar follows the harness chosen in the view");
    await shot("prompt-codex.png");
  });

  await attempt("Compare harnesses (title bar action)", async () => {
    const action = page.locator('.editor-group-container.active .editor-actions .action-label[aria-label^="Compare Harnesses"]');
    same(await action.evaluate((a) => [...a.classList].filter((c) => c.startsWith("codicon-"))), ["codicon-table"], "the action's icon");
    await action.click();
    const frame = await view(`Compare harnesses · ${SOURCE_NAME}`, "table.compare");
    const rows = await frame.locator("table.compare tbody tr").evaluateAll((trs) =>
      trs.map((tr) => [tr.dataset.harness, tr.querySelector(".total").textContent, tr.className]));
    same(rows.map(([h, total]) => [h, total]), cascade.harnesses.map((h) => [h.harness, sizeLabel(h.total)]), "compare view: every harness's total");
    same(rows.filter(([, , c]) => c === "current").map(([h]) => h), ["codex"], "compare view marks the chosen harness");
    const fits = await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    check(fits, "compare view fits the width (no horizontal scroll)");
    await shot("cascade.png");

    const cut = entry("codex").eager.find((f) => f.truncated_line !== null);
    await frame.locator(`tr[data-harness="codex"] a[data-line="${cut.truncated_line}"]`).first().click();
    await page.locator(".tab.active", { hasText: path.basename(cut.path) }).first().waitFor({ timeout: 15_000 });
    const position = page.locator(".statusbar-item", { hasText: /^Ln \d+, Col \d+/ }).first();
    await position.waitFor({ timeout: 10_000 });
    same(/^Ln (\d+)/.exec(await text(position))?.[1], String(cut.truncated_line + 1), "a click on Codex's cut file opens it at the cut line");
    // A fresh window for what follows: after a click in a webview, Quick Open loses keys to it.
    await page.reload({ waitUntil: "domcontentloaded" });
    await page.waitForSelector(".monaco-workbench .statusbar", { timeout: 60_000 });
    await page.waitForTimeout(2000);
  });

  await attempt("reminders view", async () => {
    await openFile(SOURCE);
    await palette("lsp-agents: Show File Reminders");
    const frame = await view(`On read · codex · ${SOURCE_NAME}`);
    same(await text(frame.locator("#total")), sizeLabel(expected.reminders.codex.total), "reminders view total (codex)");
    await frame.selectOption("#harness", "opencode");
    const opencode = await view(`On read · opencode · ${SOURCE_NAME}`);
    same(await text(opencode.locator("#total")), sizeLabel(expected.reminders.opencode.total), "reminders view total (opencode)");
    same(await opencode.locator("table.files tbody tr td:nth-child(2)").allInnerTexts(),
      expected.reminders.opencode.files.filter((f) => f.loaded).map((f) => rel(f.path)), "reminders view files (opencode)");
    await shot("reminders.png");
  });

  await attempt("Agent Instructions tree", async () => {
    await openFile(SOURCE);
    await palette("Explorer: Focus on Agent Instructions View");
    const pane = page.locator(".pane", { has: page.locator(".pane-header", { hasText: "Agent Instructions" }) });
    // The file tree above takes no room: the view shows every harness.
    const filesHeader = page.locator(".pane-header[aria-expanded='true']", { hasText: path.basename(folder) });
    if (await filesHeader.count()) {
      await filesHeader.first().click();
    }
    await pane.locator(".monaco-list-row").first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    const rows = await pane.locator(".monaco-list-row").evaluateAll((trs) =>
      trs.map((r) => [Number(r.getAttribute("aria-level")), r.querySelector(".label-name")?.textContent ?? "", r.querySelector(".label-description")?.textContent ?? ""]));
    const harnesses = rows.filter(([level]) => level === 1).map(([, label, description]) => [label, description]);
    const chosen = entry("opencode");
    const order = [chosen, ...cascade.harnesses.filter((h) => h !== chosen)];
    same(harnesses, order.map((h) => [h.harness, sizeLabel(h.total)]), "tree: every harness with its total, the chosen one first");
    const children = rows.slice(1, rows.findIndex(([level], i) => i > 0 && level === 1)).map(([, label, description]) => [label, description]);
    const group = (label, list, describe) => (list.length ? [[label, files(list.length)], ...list.map((f) => [rel(f.path), describe(f)])] : []);
    const why = (f) => f.explanation + (f.related ? ` (${rel(f.related)})` : "");
    same(children, [...group("At start", chosen.eager, entrySize), ...group("On read", chosen.on_read, entrySize), ...group("Not loaded", chosen.not_loaded, why)],
      "tree: the chosen harness's files at start, on read and not loaded (with the reason)");
    await shot("tree.png");
  });

  await attempt("hover", async () => {
    await page.keyboard.press("Control+B"); // room for the hover
    await openFile(SOURCE);
    const firstLine = page.locator(".editor-group-container.active .view-lines .view-line").first();
    const box = await firstLine.boundingBox();
    const hover = page.locator(".monaco-hover", { hasText: " sends " }).first();
    for (let i = 0; i < 10 && !(await hover.isVisible()); i++) {
      await page.mouse.move(box.x + 30 + i * 3, box.y + box.height / 2);
      await hover.waitFor({ state: "visible", timeout: 3000 }).catch(() => undefined);
    }
    const shown = (await hover.isVisible()) ? await text(hover) : "";
    const labels = Object.fromEntries([...shown.matchAll(/([\w-]+)(?: sends|:) ([\d,]+ files? · [\d,]+ B · ~[\d,]+ tokens)/g)].map((m) => [m[1], m[2]]));
    same(labels, Object.fromEntries(cascade.harnesses.map((h) => [h.harness, sizeLabel(h.total)])), "hover: every harness's total");
    await shot("hover.png");
    await page.mouse.move(5, 5);
  });

  await attempt("Problems pane", async () => {
    const planted = "packages/web/AGENTS.md";
    const line = fs.readFileSync(path.join(folder, planted), "utf8").split("\n").findIndex((l) => l.includes("Keep functions small")) + 1;
    await openFile(planted);
    await page.keyboard.press("Control+Shift+M");
    // Only the planted file's problems (the pane renders only the rows that fit): the duplicate must be among them.
    await page.locator(".markers-panel-action-filter input, .viewpane-filter input").first().fill(planted);
    const marker = page.locator(".markers-panel .monaco-list-row", { hasText: new RegExp(`lsp-agents.*\\[Ln ${line}, `) });
    await marker.first().waitFor({ timeout: 30_000 }).catch(async (error) => {
      const shown = await page.locator(".markers-panel .monaco-list-row").allInnerTexts();
      await shot("problems-error.png");
      throw new Error(`${error.message.split("\n")[0]}; the pane shows ${JSON.stringify(shown.map((t) => t.replace(/\s+/g, " ")))}`);
    });
    await shot("problems.png");
    const rows = (await marker.allInnerTexts()).map((t) => t.replace(/\s+/g, " "));
    check(rows.length > 0 && line > 0, `Problems pane shows the planted duplicate at ${planted}:${line}: ${rows[0]?.slice(0, 140)}`);
    await page.keyboard.press("Control+Shift+M");
  });

  await attempt("settings page", async () => {
    // The page as the Settings editor's table of contents opens it: Extensions › the extension
    // (the table of contents needs the width of the window).
    await palette("View: Close All Editor Groups");
    await palette("Preferences: Open Settings (UI)");
    const toc = (label) => page.locator(`.settings-editor .settings-toc-container .monaco-list-row[aria-label^="${label}"]`).first();
    await toc("Extensions, group").click({ timeout: 15_000 });
    await toc(manifest.displayName).click({ timeout: 15_000 });
    await page.locator(".settings-editor .setting-item-contents", { hasText: "Default Harness" }).first().waitFor({ timeout: 15_000 });
    await page.waitForTimeout(800);
    const rows = await page.locator(".settings-editor .settings-tree-container .monaco-list-rows > .monaco-list-row").evaluateAll((nodes) =>
      nodes
        .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
        .map((node) => ({
          group: (node.querySelector(".settings-group-title-label")?.textContent ?? "").trim(),
          title: (node.querySelector(".setting-item-title")?.textContent ?? "").trim(),
          description: (node.querySelector(".setting-item-description")?.textContent ?? "").trim(),
          select: node.querySelector("select")?.selectedOptions[0]?.textContent ?? null,
        })));
    const start = rows.findIndex((r) => r.group === "Agents");
    const end = rows.findIndex((r, i) => i > start && r.group && !r.group.startsWith("Agents"));
    const ours = rows.slice(start, end < 0 ? undefined : end).filter((r) => r.title);
    same(ours.slice(0, 2).map((r) => r.title), ["Default Harness", "Harnesses"], "settings page: the harness settings first, titled without a prefix");
    check(ours.every((r) => !/Lsp Agents/.test(r.title)), `no "Lsp Agents ›" in the titles: ${ours.map((r) => r.title).join(", ")}`);
    check(ours.every((r) => !r.description.includes("`")), "descriptions render code, no literal backticks");
    check(ours.every((r) => r.select !== "null"), `no "null" in a dropdown: ${ours.filter((r) => r.select).map((r) => `${r.title}=${r.select}`).join(", ")}`);
    await shot("settings.png");
  });

  await attempt("output channel", async () => {
    const lines = extensionLog(logs);
    check(lines.length > 0, `the extension's log has ${lines.length} lines`);
    const noisy = lines.filter((l) => /ignoring unknown setting|Cancel notification for unknown message id/.test(l));
    same(noisy, [], "no unknown-setting or cancel-notification noise");
    const repeated = lines.filter((l, i) => i > 0 && l === lines[i - 1]);
    same(repeated, [], "no line logged twice in a row");
    await palette("lsp-agents: Show Output");
    await shot("output.png");
  });
} catch (error) {
  check(false, error.message.split("\n")[0]);
  await page.screenshot({ path: path.join(shots, "error.png") }).catch(() => undefined);
} finally {
  await browser.close();
}
log(failures ? `${failures} FAILED` : "ALL PASS");
process.exit(failures ? 1 : 0);
