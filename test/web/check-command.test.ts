import { describe, expect, it } from "vitest";
import { checkCommand } from "../../web/src/lib/check-command.ts";
import { shellWords } from "../support/shell-words.ts";

describe("the check view's edgemcp command", () => {
  it("names the URL, quoted for a POSIX shell", () => {
    expect(checkCommand("https://example.com/mcp?a=it's", {})).toBe(
      `npx edgemcp check 'https://example.com/mcp?a=it'\\''s'`,
    );
  });

  it("passes plain headers as they are and secret ones from the environment", () => {
    expect(
      checkCommand("http://localhost:8787/mcp", {
        "X-Tenant": "acme",
        Authorization: "Bearer s3cret",
        "X-Api-Key": "k3y",
      }),
    ).toBe(
      `npx edgemcp check 'http://localhost:8787/mcp' -H 'X-Tenant: acme' -H "Authorization: $MCP_AUTHORIZATION" -H "X-Api-Key: $MCP_X_API_KEY"`,
    );
  });

  it("expands only the secret's variable, not what its header name holds", async () => {
    const name = "X-`echo pwned`-Token";
    const command = checkCommand("http://localhost:8787/mcp", { [name]: "k1" });
    const words = await shellWords(command.replace(/^npx edgemcp check/, "curl"), {
      MCP_X_ECHO_PWNED_TOKEN: "k1",
    });
    expect(words).toEqual(["http://localhost:8787/mcp", "-H", `${name}: k1`]);
  });
});
