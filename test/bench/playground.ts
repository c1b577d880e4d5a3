import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { launchChromium } from "../browser/chromium.ts";
import { startWorker } from "../support/start-worker.ts";
import { kib, ms, table } from "./format.ts";
import { ROOT } from "./paths.ts";
import { median } from "./stats.ts";

// Set by the playground when its catalog is first on screen (web/src/views/catalog/sidebar.tsx).
const CATALOG_MARK = "edgemcp:catalog-visible";
const DIST = join(ROOT, "web/dist");

/** What the first screen downloads: the page and the files it links, each gzipped at level 9. */
export type FirstLoad = {
  files: { path: string; bytes: number; gzip: number }[];
  bytes: number;
  gzip: number;
};

/** The playground's figures: first-load size and time to a visible catalog, per load. */
export type PlaygroundFigures = { firstLoad: FirstLoad; catalogMs: number[]; url: string };

/** The HTML, scripts and stylesheets the first screen needs, read from the built page. */
export function firstLoad(): FirstLoad {
  const html = readFileSync(join(DIST, "index.html"), "utf8");
  const linked = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1]!,
  );
  const files = ["/index.html", ...linked].map((path) => {
    const data = readFileSync(join(DIST, path));
    return { path, bytes: data.byteLength, gzip: gzipSync(data, { level: 9 }).byteLength };
  });
  return {
    files,
    bytes: files.reduce((n, f) => n + f.bytes, 0),
    gzip: files.reduce((n, f) => n + f.gzip, 0),
  };
}

/**
 * Loads the playground `runs` times in Debian's Chromium, each time in a fresh context (empty
 * cache, no stored connection), and measures from navigation start to the catalog on screen:
 * the page loads, finds the hub, connects (server/discover) and lists its catalog.
 */
export async function measurePlayground(runs: number): Promise<PlaygroundFigures> {
  const worker = await startWorker();
  const chromium = await launchChromium();
  const catalogMs: number[] = [];
  try {
    for (let i = 0; i < runs + 1; i++) {
      const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${worker.url.origin}/`);
      await page.waitForFunction(
        (mark) => performance.getEntriesByName(mark).length > 0,
        CATALOG_MARK,
        { timeout: 30_000 },
      );
      const at = await page.evaluate(
        (mark) => performance.getEntriesByName(mark)[0]?.startTime ?? NaN,
        CATALOG_MARK,
      );
      // The first load warms the Worker's isolate and the hub's catalog; it is not counted.
      if (i > 0) catalogMs.push(at);
      await context.close();
    }
  } finally {
    await chromium.close();
    await worker.stop();
  }
  return { firstLoad: firstLoad(), catalogMs, url: worker.url.origin };
}

/** The report section: first-load size against the 100 KB budget, and catalog times. */
export function playgroundSection(figures: PlaygroundFigures): string {
  const { firstLoad: load, catalogMs } = figures;
  const sizes = table(
    ["file", "bytes", "gzip"],
    [
      ...load.files.map((f) => [f.path, kib(f.bytes), kib(f.gzip)]),
      [
        "**first load**",
        kib(load.bytes),
        `**${kib(load.gzip)}** (budget 100 KB: ${load.gzip <= 100_000 ? "met" : "**over**"})`,
      ],
    ],
    1,
  );
  const sorted = [...catalogMs].sort((a, b) => a - b);
  const times = table(
    ["loads", "median ms", "min ms", "max ms"],
    [
      [
        String(catalogMs.length),
        ms(median(sorted)),
        ms(sorted[0] ?? NaN),
        ms(sorted.at(-1) ?? NaN),
      ],
    ],
    0,
  );
  return `First load: the HTML and every script and stylesheet it links, gzip level 9 (KiB).

${sizes}

Time until the catalog is visible in Chromium (Debian's, headless, 1280×800), from navigation start: the page loads, asks \`/api/servers\`, connects to the hub (\`server/discover\`) and lists its tools, prompts, resources and templates. Each load uses a fresh browser context; the Worker runs under \`wrangler\`'s local runtime (the page needs its assets, D1 and Durable Objects), after one unmeasured warm-up load.

${times}`;
}
