import { describe, expect, it } from "vitest";
import type { Path } from "../../../../web/src/lib/json.ts";
import { formModel, type FieldModel } from "../../../../web/src/lib/schema/model.ts";
import type { Handle } from "../../../../web/src/lib/wallet.ts";
import { Field, type FieldProps } from "../../../../web/src/views/form/form-field.tsx";
import { fire, mount, typeInto } from "../render.ts";

/** The form for a one-member object schema, its changes recorded as [path, value] pairs. */
function form(
  member: Record<string, unknown>,
  value: unknown,
  options: { required?: boolean; handles?: Handle[] } = {},
) {
  const changes: [Path, unknown][] = [];
  const model = formModel({
    type: "object",
    properties: { x: member },
    ...(options.required === false ? {} : { required: ["x"] }),
  });
  if (model.kind !== "object") throw new Error("not an object form");
  const props: FieldProps = {
    model: model.fields[0]!.model as FieldModel,
    name: "x",
    path: ["x"],
    value,
    required: options.required !== false,
    problems: [],
    onChange: (path, next) => void changes.push([path, next]),
    prefix: "t",
    handles: options.handles ?? [],
  };
  return { root: mount(Field, props), changes };
}

describe("the schema form's scalar fields", () => {
  it("a string is a labelled text input whose typing changes the value; an optional one emptied is left out", () => {
    const { root, changes } = form({ type: "string", description: "Who" }, "Ada");
    const input = root.querySelector<HTMLInputElement>("input#t_x");
    expect(input?.value).toBe("Ada");
    expect(root.querySelector("label[for=t_x]")?.textContent).toContain("x");
    expect(input?.getAttribute("aria-describedby")).toBe("t_x-help");
    typeInto(input, "Bob");
    expect(changes).toEqual([[["x"], "Bob"]]);
    const optional = form({ type: "string" }, "Ada", { required: false });
    typeInto(optional.root.querySelector("input#t_x"), "");
    expect(optional.changes).toEqual([[["x"], undefined]]);
  });

  it("an optional field's label says so once, also when the server's title already does", () => {
    const plain = form({ type: "string" }, "", { required: false });
    expect(plain.root.querySelector("label[for=t_x]")?.textContent).toBe("x (optional)");
    const titled = form({ type: "string", title: "Nickname (Optional)" }, "", { required: false });
    expect(titled.root.querySelector("label[for=t_x]")?.textContent).toBe("Nickname (Optional) x");
    const required = form({ type: "string", title: "Name" }, "");
    expect(required.root.querySelector("label[for=t_x]")?.textContent).toBe("Name * x");
  });

  it("a number keeps the last number while the text is not one, and says so", () => {
    const { root, changes } = form({ type: "number" }, 1);
    const input = root.querySelector("input#t_x");
    typeInto(input, "4x");
    expect(changes).toEqual([]);
    expect(root.querySelector(".field-error")?.textContent).toContain("“4x” is not a number");
    typeInto(input, "42");
    expect(changes).toEqual([[["x"], 42]]);
    expect(root.querySelector(".field-error")).toBeNull();
  });

  it("a boolean is a checkbox that says whether it is set", () => {
    const { root, changes } = form({ type: "boolean" }, undefined);
    expect(root.querySelector(".checkbox-line")?.textContent).toContain("not set");
    fire(root.querySelector("input[type=checkbox]#t_x"));
    expect(changes).toEqual([[["x"], true]]);
  });

  it("an enum is a select; 'not set' is offered while the field is optional", () => {
    const { root, changes } = form({ enum: ["red", "green"] }, "green", { required: false });
    const select = root.querySelector<HTMLSelectElement>("select#t_x")!;
    expect([...select.options].map((o) => o.textContent)).toEqual(["— not set —", "red", "green"]);
    select.value = "0";
    fire(select, "change");
    expect(changes).toEqual([[["x"], "red"]]);
    const required = form({ enum: ["red", "green"] }, "green");
    expect(required.root.querySelectorAll("select#t_x option")).toHaveLength(2);
  });

  it("a string field offers the wallet's handles that its name or description names", () => {
    const handles = [{ key: "noteId", value: "n-7", tool: "create_note", at: 1 }];
    const { root } = form({ type: "string", description: "The noteId to read" }, "", { handles });
    expect(root.querySelector("datalist#t_x-wallet option")?.getAttribute("value")).toBe("n-7");
    expect(root.querySelector(".wallet-hint")?.textContent).toContain("1 handle from earlier");
    const none = form({ type: "string", description: "A title" }, "", { handles });
    expect(none.root.querySelector("datalist")).toBeNull();
  });
});

describe("the schema form's composite fields", () => {
  it("an object is a group of its members, each changing its own path", () => {
    const { root, changes } = form(
      {
        type: "object",
        properties: { name: { type: "string" }, age: { type: "integer" } },
        required: ["name"],
      },
      { name: "Ada" },
    );
    expect(root.querySelector("fieldset.group legend")?.textContent).toContain("x");
    expect(root.querySelector<HTMLInputElement>("#t_x_name")?.value).toBe("Ada");
    typeInto(root.querySelector("#t_x_age"), "36");
    expect(changes).toEqual([[["x", "age"], 36]]);
  });

  it("an optional object left out offers to add it, starting from its defaults", () => {
    const { root, changes } = form(
      { type: "object", properties: { n: { type: "number", default: 3 } } },
      undefined,
      { required: false },
    );
    expect(root.querySelector("fieldset")).toBeNull();
    fire(root.querySelector("button.small-button"));
    expect(changes).toEqual([[["x"], { n: 3 }]]);
  });

  it("a free-form object is JSON text, changed only once the text parses", () => {
    const { root, changes } = form({ type: "object", additionalProperties: true }, { a: 1 });
    const text = root.querySelector("textarea#t_x");
    typeInto(text, '{"a": ');
    expect(root.querySelector(".field-error")?.textContent).toContain("Not JSON yet");
    expect(changes).toEqual([]);
    typeInto(text, '{"a": 2}');
    expect(changes).toEqual([[["x"], { a: 2 }]]);
  });

  it("an array lists its items with buttons to move, remove and add them", () => {
    const { root, changes } = form({ type: "array", items: { type: "string" } }, ["a", "b"]);
    expect(root.querySelector("legend")?.textContent).toContain("2 items");
    expect(root.querySelector<HTMLButtonElement>('[aria-label="Move item 1 up"]')?.disabled).toBe(
      true,
    );
    fire(root.querySelector('[aria-label="Move item 2 up"]'));
    fire(root.querySelector('[aria-label="Remove item 1"]'));
    fire(root.querySelector("fieldset > button.small-button"));
    expect(changes).toEqual([
      [["x"], ["b", "a"]],
      [["x"], ["b"]],
      [["x"], ["a", "b", ""]],
    ]);
    expect(root.querySelector<HTMLInputElement>("#t_x_1")?.value).toBe("b");
  });

  it("an array of an enum is one checkbox per value", () => {
    const { root, changes } = form(
      { type: "array", items: { enum: ["r", "w", "x"] }, uniqueItems: true },
      ["r"],
    );
    const boxes = root.querySelectorAll<HTMLInputElement>("input[type=checkbox]");
    expect([...boxes].map((b) => b.checked)).toEqual([true, false, false]);
    fire(boxes[1]!);
    expect(changes).toEqual([[["x"], ["r", "w"]]]);
  });

  it("variants pick a shape, then show the chosen one's fields", () => {
    const { root, changes } = form(
      {
        oneOf: [
          {
            title: "Room",
            type: "object",
            properties: { kind: { const: "room" }, room: { type: "string" } },
            required: ["kind", "room"],
          },
          {
            title: "Video call",
            type: "object",
            properties: { kind: { const: "video" }, url: { type: "string" } },
            required: ["kind", "url"],
          },
        ],
      },
      { kind: "room", room: "4.01" },
    );
    const pick = root.querySelector<HTMLSelectElement>(".variant-pick select")!;
    expect([...pick.options].map((o) => o.textContent)).toEqual(["Room", "Video call"]);
    expect(root.querySelector<HTMLInputElement>("#t_x_room")?.value).toBe("4.01");
    pick.value = "1";
    fire(pick, "change");
    expect(changes).toEqual([[["x"], expect.objectContaining({ kind: "video" })]]);
  });

  it("a nullable field has a null toggle; a null list shows as a disabled null", () => {
    const { root, changes } = form({ type: ["array", "null"], items: { type: "string" } }, null);
    expect(root.querySelector<HTMLInputElement>("input#t_x")?.value).toBe("null");
    expect(root.querySelector<HTMLInputElement>("input#t_x")?.disabled).toBe(true);
    const toggle = root.querySelector<HTMLInputElement>("input#t_x-null")!;
    expect(toggle.checked).toBe(true);
    fire(toggle);
    expect(changes).toEqual([[["x"], []]]);
  });
});
