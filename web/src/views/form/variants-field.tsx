import { switchVariant, variantIndex } from "../../lib/schema/values.ts";
import { Help, Label, NullToggle, type FieldProps, type FieldRenderer } from "./field-parts.tsx";

/**
 * One of several shapes (oneOf / anyOf): a picker for the variant, then the chosen variant's
 * field, drawn by `field`. Picking another variant starts it from its own defaults.
 */
export function VariantsField({
  props,
  field: Chosen,
}: {
  props: FieldProps;
  field: FieldRenderer;
}) {
  const { model, value, path, onChange, required, disabled } = props;
  if (model.kind !== "variants") return null;
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
        <Chosen
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
