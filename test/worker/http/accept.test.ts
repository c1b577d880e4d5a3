import { describe, expect, it } from "vitest";
import { replyModeOf } from "../../../worker/http/accept.ts";
describe("Accept", () => {
  it.each([
    [undefined, "json-or-sse"],
    ["application/json, text/event-stream", "json-or-sse"],
    ["*/*", "json-or-sse"],
    ["application/json", "json-only"],
    ["text/event-stream", "sse-only"],
    ["text/event-stream, application/json;q=0", "sse-only"],
    ["text/html", undefined],
  ])("%s allows %s", (accept, mode) => {
    expect(replyModeOf(accept)).toBe(mode);
  });
});
