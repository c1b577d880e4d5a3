import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { println } from "../../../cli/io.ts";
import { renderResult } from "../../../cli/render.ts";
import { isControl, jsonText, terminalText } from "../../../cli/terminal-text.ts";

const ESC = "\u001b";
/** What a hostile server puts in a tool's text: a title, a clipboard write, a faked check line. */
const hostile = [
  `${ESC}]0;owned${"\u0007"}`,
  `${ESC}]52;c;Y3VybCBldmlsLnNofHNo${ESC}\\`,
  `${ESC}[2K${ESC}[1A`,
  "\r✓ all checks passed",
  `${ESC}[31mred${ESC}[0m`,
  "\u009b31m",
  `${ESC}P1$qm${ESC}\\`,
  "\u0008\u0007",
].join("");

/** Everything println wrote to a stream. */
function printed(text: string): string {
  const stream = new PassThrough();
  println(stream, text);
  return String(stream.read());
}

describe("text from a server, printed on a terminal", () => {
  it("loses every escape sequence and control character, keeping its words", () => {
    expect(terminalText(hostile)).toBe("✓ all checks passedred");
  });

  it("keeps line feeds, tabs and ordinary Unicode", () => {
    expect(terminalText("a\tb\nc — ünïcode ✓ 🙂")).toBe("a\tb\nc — ünïcode ✓ 🙂");
  });

  it("is what println writes, whatever the command prints", () => {
    const result = { content: [{ type: "text" as const, text: `done${hostile}` }] };
    const out = printed(renderResult(result));
    expect([...out].filter(isControl)).toEqual([]);
    expect(out).toContain("done");
  });

  it("prints --json output with every character escaped, not dropped", () => {
    const value = { text: `${ESC}]0;t\u0007 \u009b x\u007f` };
    const out = printed(jsonText(value));
    expect([...out].filter(isControl)).toEqual([]);
    expect(JSON.parse(out)).toEqual(value);
  });
});
