import { isRecord } from "../../lib/json.ts";
import { initialValue } from "../../lib/schema/values.ts";
import {
  FieldHead,
  Help,
  Label,
  NullToggle,
  type FieldProps,
  type FieldRenderer,
} from "./field-parts.tsx";
import { JsonField } from "./json-field.tsx";

/**
 * An object: its members in a group, each drawn by `field`. An optional object left out offers
 * to add it; a free-form object (additional properties) or a null one is edited as JSON.
 */
export function ObjectField({ props, field: Member }: { props: FieldProps; field: FieldRenderer }) {
  const { model, value, path, onChange, required, disabled } = props;
  if (model.kind !== "object") return null;
  if (value === undefined && !required)
    return (
      <div class="field">
        <FieldHead props={props} />
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
  if (model.open || value === null) return <JsonField props={props} />;
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
        <Member
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
