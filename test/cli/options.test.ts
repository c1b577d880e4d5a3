import { describe, expect, it } from "vitest";
import { curlCommand, shellQuote } from "../../cli/curl.ts";
import { requestHeaders, UsageError } from "../../cli/options.ts";

describe("request headers of the edgemcp command", () => {
  it("takes EDGEMCP_HEADERS, then EDGEMCP_TOKEN, then the flags, later ones winning regardless of case", () => {
    const given = requestHeaders(
      { header: ["x-team: blue", "X-Trace: 1"], bearer: undefined },
      { EDGEMCP_HEADERS: '{"X-Team":"red","Authorization":"Basic x"}', EDGEMCP_TOKEN: "t0k" },
    );
    expect(given.headers).toEqual({
      Authorization: "Bearer t0k",
      "x-team": "blue",
      "X-Trace": "1",
    });
    expect(given.sources).toEqual({
      Authorization: "EDGEMCP_TOKEN",
      "x-team": "flag",
      "X-Trace": "flag",
    });
  });

  it("lets --bearer override the environment's token", () => {
    const given = requestHeaders({ bearer: "mine" }, { EDGEMCP_TOKEN: "theirs" });
    expect(given.headers).toEqual({ Authorization: "Bearer mine" });
  });

  it("refuses a header without a name, and EDGEMCP_HEADERS that is not an object of strings", () => {
    expect(() => requestHeaders({ header: ["no colon"] }, {})).toThrow(UsageError);
    expect(() => requestHeaders({ header: [": value"] }, {})).toThrow(UsageError);
    expect(() => requestHeaders({}, { EDGEMCP_HEADERS: "[1]" })).toThrow(UsageError);
    expect(() => requestHeaders({}, { EDGEMCP_HEADERS: '{"X-N":1}' })).toThrow(UsageError);
  });
});

describe("curl commands", () => {
  it("quotes words for a POSIX shell, single quotes included", () => {
    expect(shellQuote("https://example.com/mcp")).toBe("https://example.com/mcp");
    expect(shellQuote(`{"a":"it's"}`)).toBe(`'{"a":"it'\\''s"}'`);
  });

  it("masks values that came from EDGEMCP_HEADERS", () => {
    const request = {
      url: "https://example.com/mcp",
      headers: new Headers({ "X-Api-Key": "k3y", "Content-Type": "application/json" }),
      body: "{}",
    };
    const given = {
      headers: { "X-Api-Key": "k3y" },
      sources: { "X-Api-Key": "EDGEMCP_HEADERS" as const },
    };
    const command = curlCommand(request, given);
    expect(command).toContain("-H 'X-Api-Key: <from EDGEMCP_HEADERS>'");
    expect(command).toContain("-H 'Content-Type: application/json'");
    expect(command).not.toContain("k3y");
  });
});
