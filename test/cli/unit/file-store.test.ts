import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configDir, fileStore } from "../../../cli/auth/file-store.ts";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "edgemcp-store-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("where the command keeps sign-ins", () => {
  it.runIf(process.platform === "linux")(
    "is EDGEMCP_CONFIG_DIR, else XDG_CONFIG_HOME/edgemcp, else ~/.config/edgemcp",
    () => {
      expect(configDir({ EDGEMCP_CONFIG_DIR: "/x/y", XDG_CONFIG_HOME: "/xdg" })).toBe("/x/y");
      expect(configDir({ XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/edgemcp");
      expect(configDir({})).toBe(join(homedir(), ".config", "edgemcp"));
    },
  );

  it("creates its folder for its owner only (0700) and auth.json readable by its owner only (0600)", async () => {
    const dir = join(root, "nested", "edgemcp");
    await fileStore(dir).save("issuer:https://a.example", { tokens: {} });
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, "auth.json"))).mode & 0o777).toBe(0o600);
  });

  it("makes a file others could read owner-only again on the next save", async () => {
    await writeFile(join(root, "auth.json"), "{}");
    await chmod(join(root, "auth.json"), 0o644);
    await fileStore(root).save("server:https://m.example/mcp", { issuer: "i", resource: "r" });
    expect((await stat(join(root, "auth.json"))).mode & 0o777).toBe(0o600);
  });

  it("keeps each key apart, forgets one saved as undefined, and reads a damaged file as empty", async () => {
    const store = fileStore(root);
    await Promise.all([store.save("a", { n: 1 }), store.save("b", { n: 2 })]);
    expect(await store.load("a")).toEqual({ n: 1 });
    expect(await store.load("b")).toEqual({ n: 2 });
    await store.save("a", undefined);
    expect(JSON.parse(await readFile(join(root, "auth.json"), "utf8"))).toEqual({ b: { n: 2 } });
    await writeFile(join(root, "auth.json"), "{not json");
    expect(await store.load("b")).toBeUndefined();
  });
});
