import { describe, expect, it } from "vitest";
import { setAt } from "../../web/src/lib/json.ts";
import { formModel, type FieldModel } from "../../web/src/lib/schema/model.ts";
import { validate } from "../../web/src/lib/schema/validate.ts";
import {
  initialValue,
  newItem,
  switchVariant,
  variantIndex,
} from "../../web/src/lib/schema/values.ts";

const meeting = {
  type: "object",
  $defs: {
    person: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1 },
        email: { type: "string", format: "email" },
      },
      required: ["name", "email"],
    },
  },
  properties: {
    title: { type: "string", minLength: 3, description: "What it is about" },
    organizer: { $ref: "#/$defs/person", description: "Who runs it" },
    attendees: { type: "array", items: { $ref: "#/$defs/person" }, minItems: 1 },
    location: {
      oneOf: [
        {
          type: "object",
          title: "Room",
          properties: { kind: { const: "room" }, room: { type: "string" } },
          required: ["kind", "room"],
        },
        {
          type: "object",
          title: "Video",
          properties: { kind: { const: "video" }, url: { type: "string" } },
          required: ["kind", "url"],
        },
      ],
    },
    priority: { type: "string", enum: ["low", "normal", "high"], default: "normal" },
    level: {
      oneOf: [
        { const: 1, title: "One" },
        { const: 2, title: "Two" },
      ],
    },
    reminder: { anyOf: [{ type: "integer", minimum: 0 }, { type: "null" }], default: null },
    tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
  },
  required: ["title", "organizer", "attendees", "location"],
};

function field(model: FieldModel, name: string): FieldModel {
  if (model.kind !== "object") throw new Error("not an object");
  const found = model.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found.model;
}

describe("schema to form model", () => {
  const model = formModel(meeting);

  it("follows $ref into $defs, keeping the referring schema's description", () => {
    const organizer = field(model, "organizer");
    expect(organizer.kind).toBe("object");
    expect(organizer.description).toBe("Who runs it");
    expect(
      organizer.kind === "object" && organizer.fields.map((f) => [f.name, f.required]),
    ).toEqual([
      ["name", true],
      ["email", true],
    ]);
  });

  it("models an array of objects with its item's fields", () => {
    const attendees = field(model, "attendees");
    expect(attendees.kind === "array" && attendees.item.kind).toBe("object");
    expect(attendees.hints).toContain("at least 1 item");
  });

  it("turns oneOf objects into named variants and titled oneOf consts into choices", () => {
    const location = field(model, "location");
    expect(location.kind === "variants" && location.variants.map((v) => v.label)).toEqual([
      "Room",
      "Video",
    ]);
    const level = field(model, "level");
    expect(level.kind === "choice" && level.options).toEqual([
      { value: 1, label: "One" },
      { value: 2, label: "Two" },
    ]);
  });

  it("reads anyOf with null as a nullable field of the other type", () => {
    const reminder = field(model, "reminder");
    expect(reminder.kind).toBe("number");
    expect(reminder.nullable).toBe(true);
    expect(reminder.default).toBeNull();
  });

  it("makes an array of enum strings a multi-select", () => {
    expect(field(model, "tags").kind).toBe("multi");
  });

  it("says a count's bounds in words: exact, a range, or one side, in the singular for one", () => {
    const hints = (schema: Record<string, unknown>) =>
      field(formModel({ type: "object", properties: { x: schema } }), "x").hints;
    expect(hints({ type: "string", minLength: 2, maxLength: 2 })).toEqual(["exactly 2 characters"]);
    expect(hints({ type: "string", minLength: 3, maxLength: 20 })).toEqual(["3–20 characters"]);
    expect(hints({ type: "string", maxLength: 1 })).toEqual(["at most 1 character"]);
    expect(hints({ type: "array", items: { type: "string" }, minItems: 1, maxItems: 1 })).toEqual([
      "exactly 1 item",
    ]);
    expect(hints({ type: "array", items: { type: "string" }, maxItems: 3 })).toEqual([
      "at most 3 items",
    ]);
  });

  it("states constraints in words", () => {
    expect(field(model, "title").hints).toEqual(["at least 3 characters"]);
  });

  it("leaves the safe-integer bounds schema generators add to integers out of the hints", () => {
    const numbers = formModel({
      type: "object",
      properties: {
        count: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        offset: { type: "integer", minimum: -Number.MAX_SAFE_INTEGER, maximum: 9 },
        any: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
        ratio: { type: "number", exclusiveMinimum: 0, maximum: 1 },
      },
    });
    expect(field(numbers, "count").hints).toEqual(["≥ 1"]);
    expect(field(numbers, "offset").hints).toEqual(["≤ 9"]);
    expect(field(numbers, "any").hints).toEqual([]);
    expect(field(numbers, "ratio").hints).toEqual(["≤ 1", "> 0"]);
  });

  it("falls back to a JSON field for a recursive schema past its depth, never looping", () => {
    const tree = { type: "object", properties: { child: { $ref: "#" } } };
    let current: FieldModel = formModel(tree);
    let depth = 0;
    while (current.kind === "object") {
      current = field(current, "child");
      depth++;
    }
    expect(current.kind).toBe("json");
    expect(depth).toBeLessThan(20);
  });
});

describe("form values", () => {
  const model = formModel(meeting);

  it("start from defaults and empty required objects, leaving the rest out", () => {
    expect(initialValue(model)).toEqual({
      organizer: {},
      location: { kind: "room" },
      priority: "normal",
      reminder: null,
    });
  });

  it("leave an untouched optional list out, even one whose default is empty", () => {
    const lists = formModel({
      type: "object",
      properties: {
        agenda: { type: "array", items: { type: "string" }, default: [] },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: ["a"] },
        steps: { type: "array", items: { type: "string" }, default: ["one"] },
      },
      required: ["steps"],
    });
    expect(initialValue(lists)).toEqual({ steps: ["one"] });
  });

  it("pick the variant whose const a value carries, and fill the const on a switch", () => {
    const location = field(model, "location");
    if (location.kind !== "variants") throw new Error("not variants");
    expect(variantIndex(location.variants, { kind: "video", url: "x" })).toBe(1);
    expect(switchVariant(location.variants[1]!)).toEqual({ kind: "video" });
  });

  it("add array items of the item's kind", () => {
    const attendees = field(model, "attendees");
    expect(attendees.kind === "array" && newItem(attendees.item)).toEqual({});
  });

  it("change one member by path without touching the others", () => {
    const before = { organizer: { name: "Ada" }, attendees: [{ name: "Bob" }] };
    const after = setAt(before, ["attendees", 0, "email"], "bob@example.com");
    expect(after).toEqual({
      organizer: { name: "Ada" },
      attendees: [{ name: "Bob", email: "bob@example.com" }],
    });
    expect(before.attendees[0]).toEqual({ name: "Bob" });
    expect(setAt(after, ["organizer"], undefined)).toEqual({
      attendees: [{ name: "Bob", email: "bob@example.com" }],
    });
  });
});

describe("validation", () => {
  it("reports missing required members at the member, not only at the object", () => {
    const problems = validate(meeting, { organizer: {} });
    expect(problems).toContainEqual({ pointer: "/title", message: "Required." });
    expect(problems).toContainEqual({ pointer: "/organizer/email", message: "Required." });
  });

  it("names format and length failures with their place", () => {
    const problems = validate(meeting, {
      title: "ab",
      organizer: { name: "Ada", email: "nope" },
      attendees: [{ name: "Bob", email: "bob@example.com" }],
      location: { kind: "room", room: "A" },
    });
    expect(problems.map((p) => p.pointer)).toEqual(["/title", "/organizer/email"]);
  });

  it("shows the chosen variant's own problems, not those of the variants not chosen", () => {
    const problems = validate(meeting, {
      title: "Sync",
      organizer: { name: "Ada", email: "ada@example.com" },
      attendees: [{ name: "Bob", email: "bob@example.com" }],
      location: { kind: "video" },
    });
    expect(problems).toContainEqual({ pointer: "/location/url", message: "Required." });
    expect(problems.some((p) => p.pointer === "/location/room")).toBe(false);
  });

  it("accepts a complete value", () => {
    expect(
      validate(meeting, {
        title: "Sync",
        organizer: { name: "Ada", email: "ada@example.com" },
        attendees: [{ name: "Bob", email: "bob@example.com" }],
        location: { kind: "room", room: "A" },
        reminder: null,
      }),
    ).toEqual([]);
  });
});
