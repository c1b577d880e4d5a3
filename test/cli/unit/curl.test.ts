import { describe, expect, it } from "vitest";
import { curlCommand } from "../../../cli/curl.ts";
import type { RequestHeaders } from "../../../cli/options.ts";
import { shellWords } from "../../support/shell-words.ts";

const request = {
  url: "https://example.com/mcp",
  headers: new Headers({
    "content-type": "application/json",
    authorization: "Bearer t0k",
    "x-api-key": "k3y",
    "x-team": "blue",
    "mcp-param-region": "eu",
  }),
  body: `{"a":"it's"}`,
};
const given: RequestHeaders = {
  headers: { Authorization: "Bearer t0k", "X-Api-Key": "k3y", "x-team": "blue" },
  sources: { Authorization: "EDGEMCP_TOKEN", "X-Api-Key": "EDGEMCP_HEADERS", "x-team": "flag" },
};

describe("the command's curl", () => {
  it("prints each header as the user spelled it, the known ones as usual, every word quoted", () => {
    expect(curlCommand(request, given)).toBe(
      [
        "curl -sS -N -X POST 'https://example.com/mcp'",
        `-H "Authorization: Bearer $EDGEMCP_TOKEN"`,
        "-H 'Content-Type: application/json'",
        "-H 'Mcp-Param-Region: eu'",
        "-H 'X-Api-Key: <from EDGEMCP_HEADERS>'",
        "-H 'x-team: blue'",
        `--data-raw '{"a":"it'\\''s"}'`,
      ].join(" \\\n  "),
    );
  });

  it("leaves secrets from the environment there: the token read from $EDGEMCP_TOKEN, EDGEMCP_HEADERS masked", async () => {
    const command = curlCommand(request, given);
    expect(command).not.toContain("t0k");
    expect(command).not.toContain("k3y");
    const words = await shellWords(command, { EDGEMCP_TOKEN: "from-env" });
    expect(words).toContain("Authorization: Bearer from-env");
    expect(words.at(-1)).toBe(request.body);
  });
});
