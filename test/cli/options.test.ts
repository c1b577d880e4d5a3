import { describe, expect, it } from "vitest";
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
