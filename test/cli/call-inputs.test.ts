import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingAnswerHint } from "../../cli/answer-hints.ts";
import { McpError } from "../../shared/client/index.ts";
import { answerInputRequest } from "../../shared/client/input.ts";
import { startSdkV1Server } from "../interop/edge-client/sdk-servers.ts";
import { serverUrl } from "../interop/support/clients.ts";
import { TEST_TOKENS } from "../support/secrets.ts";
import { runCli } from "./cli.ts";

const everything = serverUrl("everything").href;
const ops = serverUrl("ops").href;

describe("edgemcp call answers what the server asks during a call", () => {
  it("declines an elicitation without --answer, saying what was asked and how to answer", async () => {
    const { code, stdout, stderr } = await runCli([
      "call",
      everything,
      "test_input_required_result_elicitation",
    ]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("No name given (decline).");
    expect(stderr.trim().split("\n")).toEqual([
      'The server asks (elicitation "user_name"): What is your name?',
      "  it wants: name (string, required)",
      `  declined: no --answer given; to accept, pass --answer '{"elicitation":{"action":"accept","content":{"name":"…"}}}'`,
    ]);
  });

  it("accepts an elicitation with the content --answer gives", async () => {
    const answer = JSON.stringify({ elicitation: { action: "accept", content: { name: "Ada" } } });
    const { code, stdout, stderr } = await runCli([
      "call",
      everything,
      "test_input_required_result_elicitation",
      "--answer",
      answer,
    ]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("Hello, Ada!");
    expect(stderr).toContain("  answered: accept (from --answer)");
  });

  it("declining a confirmation stops a tool that needs one (ops deploy_release)", async () => {
    // deploy_release changes things: only a caller with a token may call it.
    const { code, stdout, stderr } = await runCli(
      ["call", ops, "deploy_release", "--args", '{"version":"1.0.0","environment":"staging"}'],
      { EDGEMCP_TOKEN: TEST_TOKENS.alice },
    );
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe(
      "Deployment of 1.0.0 to staging was not confirmed; nothing changed.",
    );
  });

  it("replies to sampling with the text --answer gives, read from a file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "edgemcp-answer-"));
    const file = join(dir, "answer.json");
    await writeFile(file, JSON.stringify({ sampling: "Paris." }));
    try {
      const { code, stdout, stderr } = await runCli([
        "call",
        everything,
        "test_sampling",
        "--args",
        '{"prompt":"What is the capital of France?"}',
        "--answer",
        `@${file}`,
      ]);
      expect(code, stderr).toBe(0);
      expect(stdout.trim()).toBe("LLM response: Paris.");
      expect(stderr).toContain(
        'The server asks the model (sampling "answer", 1 message); answered from --answer',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("answers roots/list and a round that asks for all three at once", async () => {
    const roots = await runCli([
      "call",
      everything,
      "test_input_required_result_list_roots",
      "--answer",
      '{"roots":["file:///work","file:///data"]}',
    ]);
    expect(roots.code, roots.stderr).toBe(0);
    expect(roots.stdout.trim()).toBe("Roots: file:///work, file:///data");

    const all = await runCli([
      "call",
      everything,
      "test_input_required_result_multiple_inputs",
      "--answer",
      JSON.stringify({
        elicitation: { action: "accept", content: { name: "Bo" } },
        sampling: { role: "assistant", content: { type: "text", text: "Hi" }, model: "m" },
        roots: { roots: [{ uri: "file:///w", name: "w" }] },
      }),
    ]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain("Bo");
  });

  it("fails a tool that needs sampling or roots without --answer, naming the option", async () => {
    const { code, stdout, stderr } = await runCli([
      "call",
      everything,
      "test_sampling",
      "--args",
      '{"prompt":"What is the capital of France?"}',
    ]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual([
      expect.stringContaining("which the client did not declare"),
      `The tool needs a reply from a model: pass --answer '{"sampling":"the reply"}'.`,
    ]);
    const roots = await runCli(["call", everything, "test_input_required_result_list_roots"]);
    expect(roots.code).toBe(1);
    expect(roots.stderr).toContain(
      `The tool needs the client's roots: pass --answer '{"roots":["file:///path"]}'.`,
    );
  });

  it.each([
    ["{", "--answer is not valid JSON"],
    ['{"elicitation":{"action":"maybe"}}', "--answer at elicitation.action"],
    ['{"sampling":3}', "--answer at sampling"],
    ['{"elicit":{}}', "--answer"],
  ])("refuses --answer %s with exit code 2", async (answer, message) => {
    const { code, stderr } = await runCli([
      "call",
      everything,
      "test_input_required_result_elicitation",
      "--answer",
      answer,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('It takes an object like {"elicitation"');
  });

  it("refuses --args and --answer both from stdin", async () => {
    const { code, stderr } = await runCli(
      ["call", everything, "add_numbers", "--args", "-", "--answer", "-"],
      {},
      "{}",
    );
    expect(code).toBe(2);
    expect(stderr).toContain("cannot both read stdin");
  });
});

describe("edgemcp call answers a 2025 server's own requests the same way", () => {
  let server: Awaited<ReturnType<typeof startSdkV1Server>>;
  beforeAll(async () => {
    server = await startSdkV1Server();
  });
  afterAll(async () => {
    await server.close();
  });

  it("declines the elicitation an SDK v1 server sends on the call's stream, then accepts with --answer", async () => {
    const declined = await runCli(["call", server.url, "ask"]);
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.stdout.trim()).toBe("hello decline");
    expect(declined.stderr).toContain("The server asks (elicitation ");
    expect(declined.stderr).toContain("  it wants: name (string)");

    const accepted = await runCli([
      "call",
      server.url,
      "ask",
      "--answer",
      '{"elicitation":{"action":"accept","content":{"name":"Ann"}}}',
    ]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout.trim()).toBe("hello Ann");
  });
});

describe("the hint edgemcp call gives when a call needs input it cannot answer", () => {
  it("reads the capability from any server's -32021, whatever its message says", () => {
    const refusal = new McpError("Client lacks roots support", {
      kind: "rpc",
      code: -32021,
      data: { requiredCapabilities: { roots: {} } },
      status: 400,
    });
    expect(missingAnswerHint(refusal)).toBe(
      `The tool needs the client's roots: pass --answer '{"roots":["file:///path"]}'.`,
    );
  });

  it("names every kind a -32021 lists in one --answer", () => {
    const refusal = new McpError("needs both", {
      kind: "rpc",
      code: -32021,
      data: { requiredCapabilities: { roots: {}, sampling: {} } },
    });
    expect(missingAnswerHint(refusal)).toBe(
      `The tool needs a reply from a model and the client's roots: pass --answer '{"sampling":"the reply","roots":["file:///path"]}'.`,
    );
  });

  it("names sampling when the client refused a sampling request for want of a handler", async () => {
    const refusal = await answerInputRequest(
      {},
      { method: "sampling/createMessage", params: { messages: [], maxTokens: 10 } },
      { key: "answer", signal: undefined },
      "legacy",
    ).catch((error: unknown) => error);
    expect(missingAnswerHint(refusal)).toBe(
      `The tool needs a reply from a model: pass --answer '{"sampling":"the reply"}'.`,
    );
  });

  it("gives none for other failures, or a -32021 about something --answer cannot give", () => {
    const tasks = new McpError("needs tasks", {
      kind: "rpc",
      code: -32021,
      data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    });
    expect(missingAnswerHint(tasks)).toBeUndefined();
    expect(missingAnswerHint(new McpError("roots", { kind: "rpc", code: -32602 }))).toBeUndefined();
    expect(missingAnswerHint(new Error("needs to send sampling"))).toBeUndefined();
  });
});
