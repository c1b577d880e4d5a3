import { chromium } from "playwright-core";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox","--disable-gpu"] });
const ctx = await b.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: process.argv[3] === "dark" ? "dark" : "light" });
const p = await ctx.newPage();
p.on("console", (m) => console.log("console:", m.type(), m.text()));
p.on("pageerror", (e) => console.log("pageerror:", e.message));
await p.goto(process.argv[2] ?? "http://127.0.0.1:8791/");
await p.waitForTimeout(2500);
const steps = (process.argv[4] ?? "").split(";").filter(Boolean);
for (const s of steps) { const i = s.indexOf("="); const verb = s.slice(0, i); const arg = s.slice(i + 1); if (verb === "click") await p.click(arg!); if (verb === "wait") await p.waitForTimeout(Number(arg)); if (verb==="fill") { const [sel,val]=arg!.split("~"); await p.fill(sel!, val!);} }
await p.screenshot({ path: "/tmp/shot.png" });
await b.close();
