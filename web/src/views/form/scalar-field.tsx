import { useEffect, useState } from "preact/hooks";
import { pointerOf } from "../../lib/json.ts";
import { problemsAt } from "../../lib/schema/validate.ts";
import { offersFor } from "../../lib/wallet.ts";
import { FieldRow, idFor, type FieldProps } from "./field-parts.tsx";

/** What every scalar control shares: its id, what describes it, whether it is marked wrong. */
type Control = { props: FieldProps; id: string; describedBy: string | undefined; invalid: boolean };

function NumberInput({ props, id }: Control) {
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

/** A string: one line (a date picker for dates) or a text area, offering the wallet's handles. */
function StringInput({ props, id, describedBy, invalid }: Control) {
  const { model, value, required } = props;
  if (model.kind !== "string") return null;
  const offers = offersFor(props.name, model.description, props.handles);
  const common = {
    id,
    value: typeof value === "string" ? value : "",
    disabled: props.disabled,
    "aria-describedby": describedBy,
    "aria-invalid": invalid,
    "aria-required": required,
    placeholder: "default" in model ? `default ${String(model.default)}` : (model.format ?? ""),
    onInput: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
      props.onChange(
        props.path,
        e.currentTarget.value === "" && !required ? undefined : e.currentTarget.value,
      ),
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
            🔑 {offers.length} handle{offers.length === 1 ? "" : "s"} from earlier results: pick one
            from the list
          </div>
        </>
      ) : null}
    </>
  );
}

function BooleanInput({ props, id, describedBy }: Control) {
  const { value } = props;
  return (
    <span class="checkbox-line">
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        disabled={props.disabled}
        aria-describedby={describedBy}
        onChange={(e) => props.onChange(props.path, e.currentTarget.checked)}
      />
      <span class="muted small">{value === undefined ? "not set" : String(value)}</span>
    </span>
  );
}

/** One of a list of values; "not set" offered while the field is optional or matches none. */
function ChoiceInput({ props, id, describedBy, invalid }: Control) {
  const { model, value, required } = props;
  if (model.kind !== "choice") return null;
  const index = model.options.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(value));
  return (
    <select
      id={id}
      disabled={props.disabled}
      aria-describedby={describedBy}
      aria-invalid={invalid}
      onChange={(e) => {
        const i = Number(e.currentTarget.value);
        props.onChange(props.path, i < 0 ? undefined : model.options[i]?.value);
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

const CONTROLS = {
  string: StringInput,
  number: NumberInput,
  boolean: BooleanInput,
  choice: ChoiceInput,
} as const;

/**
 * A field with one control: string, number, boolean or choice, on a row with its label and
 * help. A null value (of any kind) shows as a disabled "null" the null toggle can undo.
 */
export function ScalarField({ props }: { props: FieldProps }) {
  const { model, value, path } = props;
  const id = idFor(props.prefix, path);
  const describedBy = model.description ? `${id}-help` : undefined;
  const invalid = problemsAt(props.problems, pointerOf(path)).length > 0;
  const Control = model.kind in CONTROLS ? CONTROLS[model.kind as keyof typeof CONTROLS] : null;
  return (
    <FieldRow props={props} htmlFor={id}>
      {value === null && model.nullable ? (
        <input id={id} type="text" value="null" disabled aria-describedby={describedBy} />
      ) : Control ? (
        <Control props={props} id={id} describedBy={describedBy} invalid={invalid} />
      ) : null}
    </FieldRow>
  );
}
