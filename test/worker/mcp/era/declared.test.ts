import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { ClientCapabilitiesSchema } from "../../../../shared/protocol/capabilities.ts";
import { ImplementationSchema } from "../../../../shared/protocol/primitives.ts";
import { readCapabilities, readImplementation } from "../../../../worker/mcp/era/declared.ts";

class Instance {
  a = 1;
}
const bare = Object.assign(Object.create(null) as object, { a: 1 });
const hidden = Object.defineProperty({}, Symbol("k"), { value: 1, enumerable: false });
const symbolKey = { [Symbol("k")]: {} };
const ownProto = JSON.parse('{"__proto__": 5}') as object;
// eslint-disable-next-line no-sparse-arrays
const holey = [, "48x48"];

/** Capabilities, each read the same way by the hand-written check and by the schema. */
const CAPABILITIES: unknown[] = [
  {},
  { roots: {}, sampling: {}, elicitation: {} },
  { roots: { listChanged: true }, futureThing: 5, other: null },
  { sampling: { context: {}, tools: {}, more: 1 }, elicitation: { form: {}, url: {}, x: [] } },
  { experimental: { a: {}, b: { deep: 1 } }, extensions: { "io.x/y": {} } },
  { roots: bare, sampling: new Instance(), elicitation: [] as unknown as object },
  { roots: hidden },
  { roots: undefined, sampling: undefined },
  { roots: { constructor: "not a function" } },
  new Instance(),
  null,
  "all",
  [],
  { roots: true },
  { roots: [] },
  { roots: new Instance() },
  { roots: new Date(0) },
  { roots: symbolKey },
  { sampling: 1 },
  { sampling: [] },
  { sampling: { tools: "yes" } },
  { sampling: { context: new Instance() } },
  { elicitation: null },
  { elicitation: { form: true } },
  { elicitation: { url: [] } },
  { experimental: [] },
  { experimental: { a: 1 } },
  { experimental: { a: [] } },
  { experimental: symbolKey },
  { experimental: { a: symbolKey } },
  { sampling: { context: symbolKey } },
  { extensions: { "io.x/y": "on" } },
  { extensions: new Instance() },
];

const ICON = { src: "https://x/i.png" };
/** Client infos, each read the same way (members kept and dropped) by both. */
const INFOS: unknown[] = [
  { name: "c", version: "1" },
  { name: "c", version: "1", title: "C", description: "d", websiteUrl: "https://c", extra: 1 },
  { name: "c", version: "1", icons: [] },
  { name: "c", version: "1", icons: [ICON, { ...ICON, mimeType: "m", sizes: ["1x1"], x: 1 }] },
  {
    name: "c",
    version: "1",
    icons: [
      { ...ICON, theme: "light" },
      { ...ICON, theme: "dark" },
    ],
  },
  { name: "c", version: "1", title: undefined, icons: undefined },
  new Instance(),
  Object.assign(new Instance(), { name: "c", version: "1" }),
  null,
  "c",
  [],
  {},
  { name: "c" },
  { version: "1" },
  { name: 1, version: "1" },
  { name: "c", version: 1 },
  { name: "c", version: "1", title: 1 },
  { name: "c", version: "1", description: null },
  { name: "c", version: "1", websiteUrl: {} },
  { name: "c", version: "1", icons: ICON },
  { name: "c", version: "1", icons: [{}] },
  { name: "c", version: "1", icons: [null] },
  { name: "c", version: "1", icons: [{ src: 1 }] },
  { name: "c", version: "1", icons: [{ ...ICON, mimeType: 1 }] },
  { name: "c", version: "1", icons: [{ ...ICON, sizes: "1x1" }] },
  { name: "c", version: "1", icons: [{ ...ICON, sizes: [1] }] },
  { name: "c", version: "1", icons: [{ ...ICON, sizes: holey }] },
  { name: "c", version: "1", icons: [{ ...ICON, theme: "blue" }] },
  { name: "c", version: "1", icons: [Object.assign(new Instance(), ICON)] },
  { name: "c", version: "1", icons: ["https://x/i.png"] },
  // eslint-disable-next-line no-sparse-arrays
  { name: "c", version: "1", icons: [ICON, , ICON] },
];

describe("client capabilities read by hand", () => {
  it.each(CAPABILITIES.map((caps, i) => [i, caps]))(
    "agree with ClientCapabilitiesSchema on case %i",
    (_i, caps) => {
      const parsed = z.safeParse(ClientCapabilitiesSchema, caps);
      const read = readCapabilities(caps);
      expect(read !== undefined).toBe(parsed.success);
      if (parsed.success) expect(read).toEqual(parsed.data);
    },
  );

  it("take a __proto__ member as the schema does, never as a prototype", () => {
    const caps = { extensions: ownProto };
    expect(z.safeParse(ClientCapabilitiesSchema, caps).success).toBe(true);
    const read = readCapabilities(caps);
    expect(Object.getPrototypeOf(read?.extensions)).toBe(Object.prototype);
    expect(readCapabilities({ extensions: JSON.parse('{"__proto__": {"x": 1}}') })).toBeDefined();
  });

  it("keep the capabilities as declared, unknown members included", () => {
    const caps = { roots: {}, futureThing: { x: 1 } };
    expect(readCapabilities(caps)).toEqual(caps);
  });
});

describe("client info read by hand", () => {
  it.each(INFOS.map((info, i) => [i, info]))(
    "agrees with ImplementationSchema on case %i",
    (_i, info) => {
      const parsed = z.safeParse(ImplementationSchema, info);
      const read = readImplementation(info);
      expect(read !== undefined).toBe(parsed.success);
      if (parsed.success) expect(read).toEqual(parsed.data);
    },
  );

  it("drops members the schema does not name, in the client and in its icons", () => {
    const info = { name: "c", version: "1", secret: "x", icons: [{ ...ICON, secret: "y" }] };
    expect(readImplementation(info)).toStrictEqual({ name: "c", version: "1", icons: [ICON] });
  });
});
