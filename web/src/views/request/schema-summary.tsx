import { useMemo, useState } from "preact/hooks";
import { fieldModel, type FieldModel } from "../../lib/schema/model.ts";
import type { Schema } from "../../lib/schema/resolve.ts";

function typeText(model: FieldModel): string {
  switch (model.kind) {
    case "number":
      return model.integer ? "integer" : "number";
    case "choice":
      return model.options
        .map((o) => (typeof o.value === "string" ? `"${o.label}"` : o.label))
        .join(" | ");
    case "multi":
      return `array of ${model.options.map((o) => o.label).join(" | ")}`;
    case "array":
      return `array of ${typeText(model.item)}`;
    case "variants":
      return `one of: ${model.variants.map((v) => v.label).join(" | ")}`;
    case "json":
      return "any JSON";
    default:
      return model.kind;
  }
}

function Members({ model }: { model: FieldModel }) {
  const children =
    model.kind === "object"
      ? model.fields.map((f) => ({ name: f.name, required: f.required, model: f.model }))
      : model.kind === "array" && model.item.kind === "object"
        ? model.item.fields.map((f) => ({
            name: `[] ${f.name}`,
            required: f.required,
            model: f.model,
          }))
        : [];
  const variants = model.kind === "variants" ? model.variants : [];
  if (children.length === 0 && variants.length === 0) return null;
  return (
    <ul class="schema-members">
      {children.map((c) => (
        <li key={c.name}>
          <code>{c.name}</code>
          {c.required ? (
            <span class="required" title="required">
              *
            </span>
          ) : null}{" "}
          <span class="muted">
            {typeText(c.model)}
            {c.model.nullable ? " | null" : ""}
          </span>
          {"default" in c.model ? (
            <span class="muted small"> = {JSON.stringify(c.model.default)}</span>
          ) : null}
          {c.model.description ? <span class="small"> — {c.model.description}</span> : null}
          {c.model.hints.length > 0 ? (
            <span class="muted small"> ({c.model.hints.join(", ")})</span>
          ) : null}
          <Members model={c.model} />
        </li>
      ))}
      {variants.map((v) => (
        <li key={v.label}>
          <em>{v.label}</em>
          <Members model={v.model} />
        </li>
      ))}
    </ul>
  );
}

/** A JSON Schema in words (members, types, required marks, constraints), with the raw JSON a click away. */
export function SchemaSummary({ schema, title }: { schema: Schema; title: string }) {
  const model = useMemo(() => fieldModel(schema, schema), [schema]);
  const [raw, setRaw] = useState(false);
  return (
    <details class="schema-summary">
      <summary>
        {title} <span class="muted small">{typeText(model)}</span>
      </summary>
      <button type="button" class="link-button small" onClick={() => setRaw(!raw)}>
        {raw ? "show as a list" : "show raw JSON Schema"}
      </button>
      {raw ? <pre class="code">{JSON.stringify(schema, null, 2)}</pre> : <Members model={model} />}
    </details>
  );
}
