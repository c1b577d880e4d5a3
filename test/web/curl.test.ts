import { describe, expect, it } from "vitest";
import type { SentRequest } from "../../shared/curl.ts";
import { toCurl, toFetch } from "../../web/src/lib/curl.ts";
import { shellWords } from "../support/shell-words.ts";

const request: SentRequest = {
  url: "http://127.0.0.1:8787/mcp/everything",
  method: "POST",
  headers: [
    ["content-type", "application/json"],
    ["authorization", "Bearer s3cret"],
    ["mcp-method", "tools/call"],
  ],
  body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"it's"}}`,
};

describe("copy as curl", () => {
  it("reads masked secrets from the environment and says so", () => {
    const curl = toCurl(request, { revealSecrets: false });
    expect(curl).toContain(`-H "authorization: \${MCP_AUTHORIZATION}"`);
    expect(curl).toContain("# export MCP_AUTHORIZATION=");
    expect(curl).not.toContain("s3cret");
  });

  it("says the masked variable holds the whole value, its Bearer word included", () => {
    const curl = toCurl(request, { revealSecrets: false });
    expect(curl.split("\n")[0]).toBe(
      `# export MCP_AUTHORIZATION='Bearer …'   (the whole authorization value, "Bearer " included; not copied)`,
    );
    const code = toFetch(request, { revealSecrets: false });
    expect(code.split("\n")[0]).toBe(
      `const MCP_AUTHORIZATION = "Bearer …"; // the whole authorization value, "Bearer " included; not copied`,
    );
    const apiKey = toCurl({ ...request, headers: [["x-api-key", "k1"]] }, { revealSecrets: false });
    expect(apiKey.split("\n")[0]).toBe("# export MCP_X_API_KEY='…'   (x-api-key, not copied)");
  });

  it("masks a secret header by its name, whatever the name holds, and the shell expands only the value", async () => {
    const name = "x-`echo pwned`-$HOME-token";
    const curl = toCurl({ ...request, headers: [[name, "k1"]] }, { revealSecrets: false });
    const words = await shellWords(curl, { MCP_X_ECHO_PWNED_HOME_TOKEN: "k1" });
    expect(words).toContain(`${name}: k1`);
    expect(curl).not.toContain("k1");
  });

  it("masks every header the page takes for a credential, an X-Auth-Key as well as Authorization", () => {
    const keyed = { ...request, headers: [["X-Auth-Key", "k-9f8e7d6c"]] as const };
    const curl = toCurl(keyed, { revealSecrets: false });
    expect(curl).toContain(`-H "X-Auth-Key: \${MCP_X_AUTH_KEY}"`);
    expect(curl).not.toContain("k-9f8e7d6c");
    expect(toFetch(keyed, { revealSecrets: false })).not.toContain("k-9f8e7d6c");
  });

  it("puts every header and the exact body in when secrets are revealed", () => {
    const curl = toCurl(request, { revealSecrets: true });
    expect(curl).toContain(`-H 'authorization: Bearer s3cret'`);
    expect(curl).toContain(`-H 'mcp-method: tools/call'`);
    expect(curl).toContain(
      `--data-raw '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"it'\\''s"}}'`,
    );
  });
});

describe("copy as fetch", () => {
  it("keeps the body as the exact string sent and masks secrets as a constant to fill in", () => {
    const code = toFetch(request, { revealSecrets: false });
    expect(code).toContain(`body: ${JSON.stringify(request.body)}`);
    expect(code).toContain(`"authorization": MCP_AUTHORIZATION,`);
    expect(code).not.toContain("s3cret");
  });
});
