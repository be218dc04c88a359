// Drives code-server's workbench like a user: palette command, hover, Problems pane; screenshots.
// Usage: node drive.mjs BASE_URL FOLDER SHOTS_DIR EXPECTED_JSON
//   EXPECTED_JSON: {"prompt": <lsp-agents prompt --format json>, "reminders": <lsp-agents reminders --format json>}
import fs from "node:fs";
import path from "node:path";
import { launchBrowser } from "./browser.mjs";

const [base, folder, shots, expectedFile] = process.argv.slice(2);
const expected = JSON.parse(fs.readFileSync(expectedFile, "utf8"));
fs.mkdirSync(shots, { recursive: true });
const t0 = Date.now();
const log = (...args) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...args);
let failures = 0;
const check = (ok, what) => {
  failures += ok ? 0 : 1;
  log(ok ? "PASS" : "FAIL", what);
};

const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
page.on("pageerror", (error) => log("pageerror:", error.message));

const quickInput = page.locator(".quick-input-widget input");
async function palette(title) {
  await page.keyboard.press("F1");
  await quickInput.waitFor({ state: "visible", timeout: 10_000 });
  await quickInput.fill(">" + title);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press("Enter");
}
async function openFile(relative) {
  await page.keyboard.press("Control+P");
  await quickInput.waitFor({ state: "visible", timeout: 10_000 });
  await quickInput.fill(relative);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: path.basename(relative) }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press("Enter");
  await page.locator(".tab.active", { hasText: path.basename(relative) }).first().waitFor({ timeout: 15_000 });
}
/** The rendered lines of the active editor, top to bottom (Monaco renders only the visible ones). */
function visibleLines() {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll(".editor-group-container.active .monaco-editor .view-lines .view-line"))
      .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
      .map((line) => line.textContent.replace(/\u00a0/g, " ")),
  );
}
async function shot(name) {
  await page.waitForTimeout(800); // notifications and hovers fade in
  await page.screenshot({ path: path.join(shots, name) });
  log("screenshot", name);
}
const attempt = (what, run) => run().catch((error) => check(false, `${what}: ${error.message.split("\n")[0]}`));

try {
  await page.goto(`${base}/?folder=${encodeURIComponent(folder)}`, { waitUntil: "domcontentloaded" });
  await page.waitForSelector(".monaco-workbench .statusbar", { timeout: 60_000 });
  log("workbench loaded");
  await page.keyboard.press("Control+B"); // hide the side bar: room for the editors in the screenshots
  const source = "packages/api/src/server.test.ts";
  await openFile(source);

  await attempt("status bar", async () => {
    const item = page.locator(".statusbar-item", { hasText: /\d+ · [\d.]+k? tok/ }).first();
    await item.waitFor({ timeout: 60_000 });
    check(true, `status bar shows "${(await item.innerText()).trim()}"`);
  });

  await attempt("Show Effective Prompt", async () => {
    await palette("Agents: Show Effective Prompt");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "opencode" }).first().waitFor({ timeout: 10_000 });
    await quickInput.fill("opencode");
    await page.keyboard.press("Enter");
    await page.locator(".tab.active", { hasText: "prompt.md" }).waitFor({ timeout: 30_000 });
    let lines = [];
    for (let i = 0; i < 100 && !lines.some((l) => l.startsWith("| | **Total")); i++) {
      await page.waitForTimeout(200);
      lines = await visibleLines();
    }
    const listed = lines.map((l) => /^\| \d+ \| \[([^\]]+)\]/.exec(l)?.[1]).filter(Boolean);
    const want = [...expected.prompt.files, ...expected.reminders.files].filter((f) => f.loaded).map((f) => path.relative(expected.prompt.cwd, f.path));
    check(JSON.stringify(listed) === JSON.stringify(want), `prompt view lists ${JSON.stringify(listed)} (expected ${JSON.stringify(want)})`);
    await page.keyboard.press("Control+Home");
    await shot("effective-prompt.png");
  });

  await attempt("Compare harnesses", async () => {
    const actions = page.locator(".editor-group-container.active .editor-actions .action-label");
    const labels = await actions.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("aria-label") ?? ""));
    const index = labels.findIndex((label) => label.startsWith("Compare harnesses"));
    if (index < 0) {
      throw new Error(`no "Compare harnesses" in the title bar: ${JSON.stringify(labels)}`);
    }
    await actions.nth(index).click();
    await page.locator(".tab.active", { hasText: "cascade.md" }).waitFor({ timeout: 30_000 });
    let header = "";
    for (let i = 0; i < 50 && !header; i++) {
      await page.waitForTimeout(200);
      header = (await visibleLines()).find((l) => l.startsWith("| Instruction file |")) ?? "";
    }
    check(header.includes("opencode") && header.includes("codex"), `title-bar action opens the cascade: ${header}`);
    await shot("cascade.png");
  });

  await attempt("hover", async () => {
    await page.keyboard.press("Control+1");
    await openFile("packages/api/src/server.ts");
    const firstLine = page.locator(".editor-group-container.active .view-lines .view-line").first();
    const box = await firstLine.boundingBox();
    const eager = expected.prompt.files.find((f) => f.loaded);
    const hover = page.locator(".monaco-hover", { hasText: path.basename(eager.path) }).first();
    for (let i = 0; i < 10 && !(await hover.isVisible()); i++) {
      await page.mouse.move(box.x + 30 + i * 3, box.y + box.height / 2);
      await hover.waitFor({ state: "visible", timeout: 3000 }).catch(() => undefined);
    }
    const text = (await hover.isVisible()) ? (await hover.innerText()).replace(/\s+/g, " ") : "";
    check(text.includes(path.relative(expected.prompt.cwd, eager.path)), `hover names the active instructions: "${text.slice(0, 120)}"`);
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
  });
} catch (error) {
  check(false, error.message.split("\n")[0]);
  await page.screenshot({ path: path.join(shots, "error.png") }).catch(() => undefined);
} finally {
  await browser.close();
}
log(failures ? `${failures} FAILED` : "ALL PASS");
process.exit(failures ? 1 : 0);
