import { useEffect, useState } from "preact/hooks";
import { FieldRow, idFor, type FieldProps } from "./field-parts.tsx";

function JsonText({ props, id }: { props: FieldProps; id: string }) {
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

/**
 * A field edited as JSON text: free-form objects, a null object field and schemas no form
 * fits. The value changes only when the text parses; until then the text says why not.
 */
export function JsonField({ props }: { props: FieldProps }) {
  const id = idFor(props.prefix, props.path);
  return (
    <FieldRow props={props} htmlFor={id}>
      <JsonText props={props} id={id} />
    </FieldRow>
  );
}
