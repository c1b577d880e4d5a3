import { useEffect, useState } from "preact/hooks";
import { isRecord, pointerOf, type Path } from "../../lib/json.ts";
import type { FieldModel } from "../../lib/schema/model.ts";
import { problemsAt, type Problem } from "../../lib/schema/validate.ts";
import { initialValue, newItem, switchVariant, variantIndex } from "../../lib/schema/values.ts";
import { offersFor } from "../../lib/wallet.ts";
import { wallet } from "../../state/store.ts";

/** What every field gets: where it is, its value and problems, and how to change it. */
export type FieldProps = {
  model: FieldModel;
  name: string;
  path: Path;
  value: unknown;
  required: boolean;
  problems: Problem[];
  onChange: (path: Path, value: unknown) => void;
  disabled?: boolean;
  /** Starts every element id of this form, so two forms on one page never share one. */
  prefix: string;
};

function idFor(prefix: string, path: Path): string {
  return `${prefix}${pointerOf(path).replace(/[^A-Za-z0-9_-]/g, "_") || "_root"}`;
}

function Label({ props, htmlFor }: { props: FieldProps; htmlFor?: string }) {
  const { model, name, required } = props;
  const text = model.title ?? name;
  return (
    <label class="field-label" for={htmlFor}>
      <span class="field-name">{text}</span>
      {required ? (
        <span class="required" title="required">
          {" "}
          *
        </span>
      ) : (
        <span class="muted"> (optional)</span>
      )}
      {model.title && model.title !== name ? <code class="muted small"> {name}</code> : null}
    </label>
  );
}

function Help({ props }: { props: FieldProps }) {
  const { model, path, problems } = props;
  const own = problemsAt(problems, pointerOf(path));
  return (
    <>
      {model.description ? (
        <div class="field-help" id={`${idFor(props.prefix, path)}-help`}>
          {model.description}
        </div>
      ) : null}
      {model.hints.length > 0 ? <div class="field-hints">{model.hints.join(" · ")}</div> : null}
      {own.map((p) => (
        <div class="field-error" role="alert" key={p.message}>
          {p.message}
        </div>
      ))}
    </>
  );
}

function NullToggle({ props }: { props: FieldProps }) {
  if (!props.model.nullable) return null;
  const isNull = props.value === null;
  const id = `${idFor(props.prefix, props.path)}-null`;
  return (
    <span class="null-toggle">
      <input
        type="checkbox"
        id={id}
        checked={isNull}
        disabled={props.disabled}
        onChange={(e) =>
          props.onChange(
            props.path,
            e.currentTarget.checked
              ? null
              : newItem({ ...props.model, nullable: false, default: undefined }),
          )
        }
      />
      <label for={id}>null</label>
    </span>
  );
}

function NumberInput({ props, id }: { props: FieldProps; id: string }) {
  const { value, model } = props;
  const shown = typeof value === "number" ? String(value) : "";
  const [text, setText] = useState(shown);
  useEffect(() => {
    if (Number(text) !== value || text === "") setText(shown);
    // Only an outside change (JSON tab, reset) replaces what the user is typing.
  }, [shown]);
  const invalid = text.trim() !== "" && !Number.isFinite(Number(text));
  return (
    <>
      <input
        id={id}
        type="text"
        inputMode={model.kind === "number" && model.integer ? "numeric" : "decimal"}
        value={text}
        disabled={props.disabled}
        aria-invalid={invalid}
        placeholder={"default" in model ? `default ${JSON.stringify(model.default)}` : ""}
        onInput={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          if (next.trim() === "") props.onChange(props.path, undefined);
          else if (Number.isFinite(Number(next))) props.onChange(props.path, Number(next));
        }}
      />
      {invalid ? (
        <div class="field-error" role="alert">
          “{text}” is not a number; the request keeps the last number.
        </div>
      ) : null}
    </>
  );
}

function Scalar({ props }: { props: FieldProps }) {
  const { model, value, path, required, disabled } = props;
  const id = idFor(props.prefix, path);
  const set = (v: unknown) => props.onChange(path, v);
  const describedBy = model.description ? `${id}-help` : undefined;
  const invalid = problemsAt(props.problems, pointerOf(path)).length > 0;
  if (value === null && model.nullable)
    return <input id={id} type="text" value="null" disabled aria-describedby={describedBy} />;
  switch (model.kind) {
    case "string": {
      const offers = offersFor(props.name, model.description, wallet.value);
      const common = {
        id,
        value: typeof value === "string" ? value : "",
        disabled,
        "aria-describedby": describedBy,
        "aria-invalid": invalid,
        "aria-required": required,
        placeholder: "default" in model ? `default ${String(model.default)}` : (model.format ?? ""),
        onInput: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
          set(e.currentTarget.value === "" && !required ? undefined : e.currentTarget.value),
      };
      if (model.multiline) return <textarea rows={3} {...common} />;
      return (
        <>
          <input
            type={model.format === "date" ? "date" : "text"}
            list={offers.length ? `${id}-wallet` : undefined}
            {...common}
          />
          {offers.length > 0 ? (
            <>
              <datalist id={`${id}-wallet`}>
                {offers.map((h) => (
                  <option key={h.value} value={h.value} label={`${h.key} from ${h.tool}`} />
                ))}
              </datalist>
              <div class="wallet-hint">
                🔑 {offers.length} handle{offers.length === 1 ? "" : "s"} from earlier results: pick
                one from the list
              </div>
            </>
          ) : null}
        </>
      );
    }
    case "number":
      return <NumberInput props={props} id={id} />;
    case "boolean":
      return (
        <span class="checkbox-line">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            disabled={disabled}
            aria-describedby={describedBy}
            onChange={(e) => set(e.currentTarget.checked)}
          />
          <span class="muted small">{value === undefined ? "not set" : String(value)}</span>
        </span>
      );
    case "choice": {
      const index = model.options.findIndex(
        (o) => JSON.stringify(o.value) === JSON.stringify(value),
      );
      return (
        <select
          id={id}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onChange={(e) => {
            const i = Number(e.currentTarget.value);
            set(i < 0 ? undefined : model.options[i]?.value);
          }}
        >
          {!required || index < 0 ? (
            <option value="-1" selected={index < 0}>
              — not set —
            </option>
          ) : null}
          {model.options.map((o, i) => (
            <option key={i} value={i} selected={i === index}>
              {o.label}
            </option>
          ))}
        </select>
      );
    }
    default:
      return null;
  }
}

function JsonField({ props }: { props: FieldProps }) {
  const id = idFor(props.prefix, props.path);
  const shown = props.value === undefined ? "" : JSON.stringify(props.value, null, 2);
  const [text, setText] = useState(shown);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    try {
      if (JSON.stringify(JSON.parse(text || "null")) !== JSON.stringify(props.value ?? null))
        setText(shown);
    } catch {
      // The user's unparsed text stays until it parses or the value changes elsewhere.
    }
  }, [shown]);
  return (
    <>
      <textarea
        id={id}
        class="mono"
        rows={4}
        value={text}
        disabled={props.disabled}
        onInput={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          if (next.trim() === "")
            return (setError(undefined), props.onChange(props.path, undefined));
          try {
            props.onChange(props.path, JSON.parse(next));
            setError(undefined);
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          }
        }}
      />
      {error ? (
        <div class="field-error" role="alert">
          Not JSON yet: {error}
        </div>
      ) : (
        <div class="field-hints">Any JSON value</div>
      )}
    </>
  );
}

/** One field of a schema form, recursively: scalars, objects, arrays, variants, nullables. */
export function Field(props: FieldProps) {
  const { model, value, path, onChange, required, disabled } = props;
  const id = idFor(props.prefix, path);
  const label = (htmlFor?: string) => (
    <div class="field-head">
      <Label props={props} {...(htmlFor ? { htmlFor } : {})} />
      <NullToggle props={props} />
    </div>
  );
  // Free-form objects, nulls of object fields and schemas no form fits are edited as JSON.
  const asJson = (
    <div class="field">
      {label(id)}
      <JsonField props={props} />
      <Help props={props} />
    </div>
  );
  if (model.kind === "object") {
    if (value === undefined && !required)
      return (
        <div class="field">
          {label()}
          <Help props={props} />
          <button
            type="button"
            class="small-button"
            disabled={disabled}
            onClick={() => onChange(path, initialValue(model, true))}
          >
            + Add {model.title ?? props.name}
          </button>
        </div>
      );
    if (model.open || value === null) return asJson;
    const record = isRecord(value) ? value : {};
    return (
      <fieldset class="field group">
        <legend>
          <Label props={props} />
          <NullToggle props={props} />
          {!required ? (
            <button
              type="button"
              class="link-button"
              disabled={disabled}
              onClick={() => onChange(path, undefined)}
            >
              remove
            </button>
          ) : null}
        </legend>
        <Help props={props} />
        {model.fields.map((f) => (
          <Field
            key={f.name}
            {...props}
            model={f.model}
            name={f.name}
            path={[...path, f.name]}
            value={record[f.name]}
            required={f.required}
          />
        ))}
      </fieldset>
    );
  }
  if (model.kind === "array" && value !== null) {
    const list = Array.isArray(value) ? value : [];
    const move = (from: number, to: number) => {
      const next = [...list];
      const [item] = next.splice(from, 1);
      next.splice(to, 0, item);
      onChange(path, next);
    };
    return (
      <fieldset class="field group">
        <legend>
          <Label props={props} />
          <NullToggle props={props} />
          <span class="muted small">
            {" "}
            {list.length} item{list.length === 1 ? "" : "s"}
          </span>
        </legend>
        <Help props={props} />
        <ol class="array-items">
          {list.map((item, i) => (
            <li key={i} class="array-item">
              <Field
                {...props}
                model={model.item}
                name={`${props.name} ${i + 1}`}
                path={[...path, i]}
                value={item}
                required={true}
              />
              <div class="item-actions" role="group" aria-label={`Item ${i + 1}`}>
                <button
                  type="button"
                  class="icon-button"
                  aria-label={`Move item ${i + 1} up`}
                  disabled={disabled || i === 0}
                  onClick={() => move(i, i - 1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="icon-button"
                  aria-label={`Move item ${i + 1} down`}
                  disabled={disabled || i === list.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="icon-button"
                  aria-label={`Remove item ${i + 1}`}
                  disabled={disabled}
                  onClick={() =>
                    onChange(
                      path,
                      list.filter((_, j) => j !== i),
                    )
                  }
                >
                  ✕
                </button>
              </div>
            </li>
          ))}
        </ol>
        <button
          type="button"
          class="small-button"
          disabled={disabled}
          onClick={() => onChange(path, [...list, newItem(model.item)])}
        >
          + Add {model.item.title ?? "item"}
        </button>
      </fieldset>
    );
  }
  if (model.kind === "multi") {
    const list = Array.isArray(value) ? value : [];
    return (
      <fieldset class="field group">
        <legend>
          <Label props={props} />
        </legend>
        <Help props={props} />
        {model.options.map((o, i) => {
          const on = list.some((v) => JSON.stringify(v) === JSON.stringify(o.value));
          return (
            <label key={i} class="checkbox-line">
              <input
                type="checkbox"
                checked={on}
                disabled={disabled}
                onChange={() =>
                  onChange(
                    path,
                    on
                      ? list.filter((v) => JSON.stringify(v) !== JSON.stringify(o.value))
                      : [...list, o.value],
                  )
                }
              />
              {o.label}
            </label>
          );
        })}
      </fieldset>
    );
  }
  if (model.kind === "variants" && value !== null) {
    const index = variantIndex(model.variants, value);
    const variant = model.variants[index]!;
    return (
      <fieldset class="field group">
        <legend>
          <Label props={props} />
          <NullToggle props={props} />
        </legend>
        <Help props={props} />
        <label class="variant-pick">
          <span class="muted small">Variant </span>
          <select
            disabled={disabled}
            onChange={(e) =>
              onChange(path, switchVariant(model.variants[Number(e.currentTarget.value)]!))
            }
          >
            {model.variants.map((v, i) => (
              <option key={i} value={i} selected={i === index}>
                {v.label}
              </option>
            ))}
          </select>
        </label>
        {value === undefined && !required ? null : (
          <Field
            {...props}
            model={{ ...variant.model, title: variant.label }}
            path={path}
            value={value}
            required={true}
          />
        )}
      </fieldset>
    );
  }
  if (model.kind === "json") return asJson;
  return (
    <div class="field">
      {label(id)}
      <Scalar props={props} />
      <Help props={props} />
    </div>
  );
}
