import { newItem } from "../../lib/schema/values.ts";
import { Help, Label, NullToggle, type FieldProps, type FieldRenderer } from "./field-parts.tsx";

/** Move up, move down and remove, for the item at `index` of a list of `count`. */
function ItemActions({
  index,
  count,
  disabled,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  disabled: boolean | undefined;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}) {
  const n = index + 1;
  return (
    <div class="item-actions" role="group" aria-label={`Item ${n}`}>
      <button
        type="button"
        class="icon-button"
        aria-label={`Move item ${n} up`}
        disabled={disabled || index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        ↑
      </button>
      <button
        type="button"
        class="icon-button"
        aria-label={`Move item ${n} down`}
        disabled={disabled || index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        ↓
      </button>
      <button
        type="button"
        class="icon-button"
        aria-label={`Remove item ${n}`}
        disabled={disabled}
        onClick={() => onRemove(index)}
      >
        ✕
      </button>
    </div>
  );
}

/** A list: each item drawn by `field`, with buttons to reorder, remove and add items. */
export function ArrayField({ props, field: Item }: { props: FieldProps; field: FieldRenderer }) {
  const { model, value, path, onChange, disabled } = props;
  if (model.kind !== "array") return null;
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
            <Item
              {...props}
              model={model.item}
              name={`${props.name} ${i + 1}`}
              path={[...path, i]}
              value={item}
              required={true}
            />
            <ItemActions
              index={i}
              count={list.length}
              disabled={disabled}
              onMove={move}
              onRemove={(at) =>
                onChange(
                  path,
                  list.filter((_, j) => j !== at),
                )
              }
            />
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

/** A set of values from a fixed list (an array of an enum): one checkbox per value. */
export function MultiField({ props }: { props: FieldProps }) {
  const { model, value, path, onChange, disabled } = props;
  if (model.kind !== "multi") return null;
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
