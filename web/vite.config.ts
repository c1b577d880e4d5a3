import { defineConfig } from "vite";

// The playground: one page, no runtime fetches but the MCP servers it talks to. Preact's JSX
// is compiled by Vite's own transformer; no plugin is needed.
export default defineConfig({
  root: import.meta.dirname,
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // One script and one stylesheet: the first screen needs all of it, and CSP allows only 'self'.
    modulePreload: false,
    cssCodeSplit: false,
  },
});
