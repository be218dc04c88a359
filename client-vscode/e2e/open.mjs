// Opens a folder in code-server and waits until the extension has published its first diagnostics.
// Usage: node open.mjs BASE_URL FOLDER LOGS_DIR   (prints the extension's log line; exits 1 after 60 s without)
import { launchBrowser } from "./browser.mjs";
import { waitForLine } from "./logs.mjs";

const [base, folder, logs] = process.argv.slice(2);
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(`${base}/?folder=${encodeURIComponent(folder)}`, { waitUntil: "domcontentloaded" });
const line = await waitForLine(logs, /First diagnostics/, 60_000);
await browser.close();
console.log(line ?? "no diagnostics within 60 s");
process.exit(line ? 0 : 1);
