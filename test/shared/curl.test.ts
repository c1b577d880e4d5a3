import { describe, expect, it } from "vitest";
import { curlCommand, headerWord, shellQuote, type SentRequest } from "../../shared/curl.ts";
import { isSecretHeader } from "../../shared/secret-headers.ts";
import { shellWords } from "../support/shell-words.ts";

const request: SentRequest = {
  url: "http://127.0.0.1:8787/mcp?a=1&b=$HOME",
  method: "POST",
  headers: [
    ["Content-Type", "application/json"],
    ["Authorization", "Bearer s3cret"],
  ],
  body: `{"name":"it's \`id\` $HOME \\\\ \\"q\\""}`,
};

describe("quoting for a POSIX shell", () => {
  it("puts every word in single quotes, a single quote closed, escaped and reopened", () => {
    expect(shellQuote("https://example.com/mcp")).toBe("'https://example.com/mcp'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("")).toBe("''");
  });

  it("hands the shell's command the URL, headers and body byte for byte", async () => {
    const words = await shellWords(curlCommand(request));
    expect(words).toEqual([
      "-sS",
      "-N",
      "-X",
      "POST",
      request.url,
      "-H",
      "Content-Type: application/json",
      "-H",
      "Authorization: Bearer s3cret",
      "--data-raw",
      request.body,
    ]);
  });

  it("leaves the body out when there is none", () => {
    expect(curlCommand({ ...request, method: "GET", body: "" })).not.toContain("--data-raw");
  });

  it("quotes a method that is not plain letters", () => {
    expect(curlCommand({ ...request, method: "P$T" })).toContain("-X 'P$T' ");
  });
});

describe("how each header's value is shown", () => {
  it("expands what the show function asks for, in double quotes, and prints the rest as sent", async () => {
    const command = curlCommand(request, (name, value) =>
      name === "Authorization" ? { expand: "Bearer $TOKEN" } : { literal: value },
    );
    expect(command).toContain(`-H "Authorization: Bearer $TOKEN"`);
    expect(command).not.toContain("s3cret");
    const words = await shellWords(command, { TOKEN: "from-env" });
    expect(words).toContain("Authorization: Bearer from-env");
    expect(words).toContain("Content-Type: application/json");
  });

  it("expands only the value: a header name's $, backquote and backslash stay as they are", async () => {
    const name = "x-`echo pwned`-$HOME-\\-token";
    const word = headerWord(name, { expand: "$TOKEN" });
    expect(await shellWords(`curl ${word}`, { TOKEN: "t" })).toEqual([`${name}: t`]);
  });
});

describe("secret headers", () => {
  it("counts a name as a credential when any part of it says so, in any case", () => {
    for (const name of [
      "Authorization",
      "proxy-authorization",
      "Cookie",
      "Set-Cookie",
      "X-Auth-Token",
      "X-Auth-Key",
      "Ocp-Apim-Subscription-Key",
      "X-Client-Secret",
      "X-Api-Key",
      "x-apikey",
      "X-Password",
      "Mcp-Session-Id",
    ])
      expect(isSecretHeader(name), name).toBe(true);
  });

  it("leaves other headers shown", () => {
    for (const name of ["Content-Type", "Accept", "Mcp-Method", "Mcp-Name", "X-Tenant", "X-Region"])
      expect(isSecretHeader(name), name).toBe(false);
  });
});
