import type { ComponentChild } from "preact";
import type { FieldModel } from "../../lib/schema/model.ts";
import { ArrayField, MultiField } from "./array-field.tsx";
import type { FieldProps, FieldRenderer } from "./field-parts.tsx";
import { JsonField } from "./json-field.tsx";
import { ObjectField } from "./object-field.tsx";
import { ScalarField } from "./scalar-field.tsx";
import { VariantsField } from "./variants-field.tsx";

export type { FieldProps } from "./field-parts.tsx";

/** What draws a field of one kind; the ones with members draw them with `field`. */
type FieldKind = (args: { props: FieldProps; field: FieldRenderer }) => ComponentChild;

/**
 * The field components by the kind of their schema. A null list or variant shows as a null
 * scalar (its null toggle brings a value back); a null object is edited as JSON.
 */
const FIELDS: Record<FieldModel["kind"], FieldKind> = {
  object: ObjectField,
  array: ({ props, field }) =>
    props.value === null ? (
      <ScalarField props={props} />
    ) : (
      <ArrayField props={props} field={field} />
    ),
  multi: MultiField,
  variants: ({ props, field }) =>
    props.value === null ? (
      <ScalarField props={props} />
    ) : (
      <VariantsField props={props} field={field} />
    ),
  json: JsonField,
  string: ScalarField,
  number: ScalarField,
  boolean: ScalarField,
  choice: ScalarField,
};

/** One field of a schema form, recursively: scalars, objects, arrays, variants, nullables. */
export function Field(props: FieldProps) {
  const Kind = FIELDS[props.model.kind];
  return <Kind props={props} field={Field} />;
}
