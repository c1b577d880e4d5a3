import { describe, expect, it } from "vitest";
import { responseEnd } from "./cpu-ab.ts";

describe("responseEnd", () => {
  const head = (lines: string) => Buffer.from(`HTTP/1.1 200 OK\r\n${lines}\r\n\r\n`);

  it("waits for the head, then for as many body bytes as Content-Length says", () => {
    expect(responseEnd(Buffer.from("HTTP/1.1 200 OK\r\nContent-Len"))).toBeUndefined();
    const partial = Buffer.concat([head("Content-Length: 5"), Buffer.from("abc")]);
    expect(responseEnd(partial)).toEqual({ status: 200, complete: false });
    const whole = Buffer.concat([partial, Buffer.from("de")]);
    expect(responseEnd(whole)).toEqual({ status: 200, complete: true });
  });

  it("ends a chunked body at its last chunk, and reads the status", () => {
    const open = Buffer.concat([head("Transfer-Encoding: chunked"), Buffer.from("3\r\nabc\r\n")]);
    expect(responseEnd(open)).toEqual({ status: 200, complete: false });
    expect(responseEnd(Buffer.concat([open, Buffer.from("0\r\n\r\n")]))).toEqual({
      status: 200,
      complete: true,
    });
    const refused = Buffer.from("HTTP/1.1 406 Not Acceptable\r\ncontent-length: 0\r\n\r\n");
    expect(responseEnd(refused)).toEqual({ status: 406, complete: true });
  });

  it("refuses a response whose end it cannot tell", () => {
    expect(() => responseEnd(head("Connection: close"))).toThrow(/neither Content-Length/);
  });
});
