import { useRef, useState } from "preact/hooks";
import type { CompleteParams } from "../../../../shared/protocol/params.ts";
import { isRecord } from "../../lib/json.ts";
import { OptionalMark } from "../form/field-parts.tsx";
import { session } from "../../state/store.ts";

/** A string argument of a prompt or a template variable. */
export type ArgSpec = { name: string; title?: string; description?: string; required: boolean };

type Props = {
  args: ArgSpec[];
  value: unknown;
  onChange: (value: Record<string, string>) => void;
  /** What completion/complete refers to: the prompt or the resource template. */
  reference: CompleteParams["ref"];
  idPrefix: string;
};

/**
 * String arguments with the server's suggestions (`completion/complete`) as the user types,
 * offered as a list under each field; other arguments typed so far go along as context.
 */
export function CompletingArgs({ args, value, onChange, reference, idPrefix }: Props) {
  const values: Record<string, string> = isRecord(value)
    ? Object.fromEntries(
        Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"),
      )
    : {};
  const [suggestions, setSuggestions] = useState<
    Record<string, { values: string[]; total?: number }>
  >({});
  const timers = useRef<Record<string, ReturnType<typeof setTimeout>>>({});
  const completes = session.value?.client.server.capabilities.completions !== undefined;
  const suggest = (name: string, typed: string, all: Record<string, string>) => {
    const client = session.value?.client;
    if (!client || !completes) return;
    clearTimeout(timers.current[name]);
    timers.current[name] = setTimeout(async () => {
      try {
        const { result } = await client.complete({
          ref: reference,
          argument: { name, value: typed },
          context: { arguments: all },
        });
        setSuggestions((s) => ({
          ...s,
          [name]: {
            values: result.completion.values,
            ...(result.completion.total === undefined ? {} : { total: result.completion.total }),
          },
        }));
      } catch {
        setSuggestions((s) => ({ ...s, [name]: { values: [] } }));
      }
    }, 120);
  };
  if (args.length === 0) return <p class="muted">No arguments.</p>;
  return (
    <div class="args">
      {args.map((arg) => {
        const id = `${idPrefix}-${arg.name}`;
        const offered = suggestions[arg.name];
        return (
          <div class="field" key={arg.name}>
            <label class="field-label" for={id}>
              <span class="field-name">{arg.title ?? arg.name}</span>
              {arg.required ? (
                <span class="required" title="required">
                  {" "}
                  *
                </span>
              ) : (
                <OptionalMark text={arg.title ?? arg.name} />
              )}
            </label>
            <input
              id={id}
              list={`${id}-options`}
              autocomplete="off"
              value={values[arg.name] ?? ""}
              aria-required={arg.required}
              onFocus={(e) => suggest(arg.name, e.currentTarget.value, values)}
              onInput={(e) => {
                const next = { ...values, [arg.name]: e.currentTarget.value };
                if (e.currentTarget.value === "") delete next[arg.name];
                onChange(next);
                suggest(arg.name, e.currentTarget.value, next);
              }}
            />
            <datalist id={`${id}-options`}>
              {(offered?.values ?? []).map((v) => (
                <option key={v} value={v} />
              ))}
            </datalist>
            {arg.description ? <div class="field-help">{arg.description}</div> : null}
            {offered && offered.values.length > 0 ? (
              <div class="suggestions" aria-label={`Suggestions for ${arg.name}`}>
                {offered.values.slice(0, 12).map((v) => (
                  <button
                    type="button"
                    class="chip"
                    key={v}
                    onClick={() => onChange({ ...values, [arg.name]: v })}
                  >
                    {v}
                  </button>
                ))}
                {offered.total !== undefined && offered.total > offered.values.length ? (
                  <span class="muted small"> of {offered.total}</span>
                ) : null}
              </div>
            ) : null}
            {arg.required && !values[arg.name] ? <div class="field-error">Required.</div> : null}
          </div>
        );
      })}
    </div>
  );
}
