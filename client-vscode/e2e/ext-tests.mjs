// Runs the extension's Mocha integration tests inside code-server's real extension host (the offline
// replacement for @vscode/test-electron): the web workbench reads extensionDevelopmentPath and
// extensionTestsPath from the `payload` query parameter and calls window.codeAutomationExit(code).
// Usage: node ext-tests.mjs BASE_URL EXTENSION_DIR FOLDER [LOGS_DIR]
//   LOGS_DIR: the session's logs; the page stays open until the extension has logged its first diagnostics.
import { format } from "node:util";
import { launchBrowser } from "./browser.mjs";
import { waitForLine } from "./logs.mjs";

const [base, extDir, folder, logs] = process.argv.slice(2);
const remote = (p) => `vscode-remote://${new URL(base).host}${p}`;
const payload = [
  ["extensionDevelopmentPath", remote(extDir)],
  ["extensionTestsPath", remote(`${extDir}/out/integration/index.js`)],
];
const url = `${base}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

const browser = await launchBrowser();
const page = await browser.newPage();
let exit;
const exited = new Promise((resolve) => (exit = resolve));
await page.exposeFunction("codeAutomationExit", (code) => exit(code));
page.on("console", async (message) => {
  let text;
  try {
    const args = await Promise.all(message.args().map((h) => h.jsonValue()));
    // forwarded ext-host logs look like ["%c INFO", "color: #33f", <original console.log args...>]
    text = typeof args[0] === "string" && args[0].startsWith("%c") ? format(...args.slice(2)) : format(...args);
  } catch {
    text = message.text();
  }
  text = text.replace(/%c/g, "").replace(/color: #[0-9a-f]+ ?/gi, "");
  if (process.env.DEBUG || /passing|failing|pending|✔|✓|\d+\) |AssertionError|Error:|expected|actual|^\s{2,}/.test(text)) {
    console.log("[exthost]", text.slice(0, 600));
  }
});
// Newer workbenches honour the payload's test paths only with developmentOptions.enableSmokeTestDriver,
// a server flag code-server's CLI rejects: set it in the configuration the page reads.
await page.addInitScript(() => {
  const getAttribute = Element.prototype.getAttribute;
  Element.prototype.getAttribute = function (name) {
    const value = getAttribute.call(this, name);
    if (name === "data-settings" && this.id === "vscode-workbench-web-configuration" && value) {
      const config = JSON.parse(value);
      config.developmentOptions = { ...(config.developmentOptions || {}), enableSmokeTestDriver: true };
      return JSON.stringify(config);
    }
    return value;
  };
});
await page.goto(url, { waitUntil: "domcontentloaded" });
const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("timeout"), 240_000))]);
console.log(`extension-host tests: exit=${code}`);
if (logs) {
  await waitForLine(logs, /First diagnostics/, 30_000);
}
await browser.close();
process.exit(code === 0 ? 0 : 1);
