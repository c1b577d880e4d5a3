import type { ComponentChildren, FunctionComponent } from "preact";
import { pointerOf, type Path } from "../../lib/json.ts";
import type { FieldModel } from "../../lib/schema/model.ts";
import { problemsAt, type Problem } from "../../lib/schema/validate.ts";
import { newItem } from "../../lib/schema/values.ts";
import type { Handle } from "../../lib/wallet.ts";

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
  /** Handles from earlier results that a string field may offer (the wallet). */
  handles: Handle[];
};

/** Renders a field of any kind: how an object, array or variant draws its members. */
export type FieldRenderer = FunctionComponent<FieldProps>;

export function idFor(prefix: string, path: Path): string {
  return `${prefix}${pointerOf(path).replace(/[^A-Za-z0-9_-]/g, "_") || "_root"}`;
}

/** " (optional)" after a field's name, unless the server's title already ends by saying so. */
export function OptionalMark({ text }: { text: string }) {
  return /\(optional\)\s*$/i.test(text) ? null : <span class="muted"> (optional)</span>;
}

export function Label({ props, htmlFor }: { props: FieldProps; htmlFor?: string }) {
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
        <OptionalMark text={text} />
      )}
      {model.title && model.title !== name ? <code class="muted small"> {name}</code> : null}
    </label>
  );
}

/** The field's description, its schema's hints and the problems found at its own path. */
export function Help({ props }: { props: FieldProps }) {
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

/** A checkbox that makes a nullable field null, or gives it a fresh value again. */
export function NullToggle({ props }: { props: FieldProps }) {
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

/** The label and null toggle above a field's control. */
export function FieldHead({ props, htmlFor }: { props: FieldProps; htmlFor?: string }) {
  return (
    <div class="field-head">
      <Label props={props} {...(htmlFor ? { htmlFor } : {})} />
      <NullToggle props={props} />
    </div>
  );
}

/** A field on one row: its label (for the control's id, when it has one), the control, help. */
export function FieldRow({
  props,
  htmlFor,
  children,
}: {
  props: FieldProps;
  htmlFor?: string;
  children?: ComponentChildren;
}) {
  return (
    <div class="field">
      <FieldHead props={props} {...(htmlFor ? { htmlFor } : {})} />
      {children}
      <Help props={props} />
    </div>
  );
}
