import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      // Tests bring their own secret, so they run where .dev.vars does not exist (CI).
      miniflare: { bindings: { EDGEMCP_SECRET: "test-only-secret-0123456789abcdef0123" } },
    }),
  ],
  test: { include: ["test/**/*.test.ts"] },
});
