import { useEffect, useMemo, useState } from "preact/hooks";
import { isRecord, pointerOf, setAt, type Path } from "../../lib/json.ts";
import { formatJson, parseDraft, textSays } from "../../lib/json-text.ts";
import { formModel } from "../../lib/schema/model.ts";
import type { Schema } from "../../lib/schema/resolve.ts";
import { validate, type Problem } from "../../lib/schema/validate.ts";
import { patternRound } from "../../state/pattern-checks.ts";
import { wallet } from "../../state/store.ts";
import { Field } from "./form-field.tsx";

type Props = {
  /** The schema of the whole request value (a tool's inputSchema, or one built for prompts). */
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  /** Tells the parent whether the JSON text parses, so sending can wait for it. */
  onDraftState?: (ok: boolean) => void;
  idPrefix: string;
  /** Starts the form fields' ids (`f_title` for the member `title`). */
  fieldPrefix?: string;
};

/**
 * The arguments editor: a form generated from the schema and a raw JSON tab, kept in sync both
 * ways. The JSON text is the user's own: it is rewritten only when the form changes the value,
 * and while it does not parse the form is read-only, so nothing typed is ever lost.
 */
export function RequestEditor({
  schema,
  value,
  onChange,
  onDraftState,
  idPrefix,
  fieldPrefix = "f",
}: Props) {
  const model = useMemo(() => formModel(schema), [schema]);
  const [tab, setTab] = useState<"form" | "json">("form");
  const [text, setText] = useState(() => formatJson(value));
  const draft = parseDraft(text);
  useEffect(() => {
    if (!textSays(text, value) && parseDraft(text).ok) setText(formatJson(value));
  }, [value]);
  useEffect(() => onDraftState?.(draft.ok), [draft.ok]);
  // Validated again when a pattern test answers (they run off the page's thread).
  const round = patternRound.value;
  const problems: Problem[] = useMemo(() => validate(schema, value ?? {}), [schema, value, round]);
  // A field says what is wrong with it once the person has been at it (or has edited the JSON,
  // which touches everything): a fresh form is not a list of mistakes.
  const [touched, setTouched] = useState<string[]>([]);
  const touch = (pointer: string) =>
    setTouched((list) => (list.includes(pointer) ? list : [...list, pointer]));
  const shown = problems.filter((p) =>
    touched.some((t) => t === "" || p.pointer === t || p.pointer.startsWith(`${t}/`)),
  );
  const change = (path: Path, next: unknown) => {
    touch(pointerOf(path));
    onChange(setAt(value ?? {}, path, next));
  };
  const tabs = (
    <div class="tabs" role="tablist" aria-label="Arguments editor">
      {(["form", "json"] as const).map((t) => (
        <button
          key={t}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${t}`}
          aria-selected={tab === t}
          aria-controls={`${idPrefix}-panel-${t}`}
          class={tab === t ? "tab active" : "tab"}
          onClick={() => setTab(t)}
        >
          {t === "form" ? "Form" : "JSON"}
          {t === "json" && !draft.ok ? " ⚠" : ""}
        </button>
      ))}
    </div>
  );
  return (
    <div class="editor">
      {tabs}
      {tab === "form" ? (
        <div
          role="tabpanel"
          id={`${idPrefix}-panel-form`}
          aria-labelledby={`${idPrefix}-tab-form`}
          class="form-panel"
        >
          {!draft.ok ? (
            <p class="banner warn" role="status">
              The JSON tab has text that does not parse (line {draft.line}, column {draft.column});
              fix it there to edit here. Your text is kept.
            </p>
          ) : null}
          {model.kind === "object" && model.fields.length === 0 ? (
            <p class="muted">No arguments.</p>
          ) : model.kind === "object" && !model.open ? (
            model.fields.map((f) => (
              <Field
                key={f.name}
                model={f.model}
                name={f.name}
                path={[f.name]}
                value={isRecord(value) ? value[f.name] : undefined}
                required={f.required}
                problems={shown}
                onChange={change}
                disabled={!draft.ok}
                prefix={fieldPrefix}
                handles={wallet.value}
              />
            ))
          ) : (
            <Field
              model={model}
              name="arguments"
              path={[]}
              value={value}
              required={true}
              problems={shown}
              onChange={(_, v) => (touch(""), onChange(v))}
              disabled={!draft.ok}
              prefix={fieldPrefix}
              handles={wallet.value}
            />
          )}
        </div>
      ) : (
        <div
          role="tabpanel"
          id={`${idPrefix}-panel-json`}
          aria-labelledby={`${idPrefix}-tab-json`}
          class="json-panel"
        >
          <label class="sr-only" for={`${idPrefix}-json`}>
            Arguments as JSON
          </label>
          <textarea
            id={`${idPrefix}-json`}
            class="mono json-input"
            spellcheck={false}
            rows={12}
            value={text}
            aria-invalid={!draft.ok}
            onInput={(e) => {
              const next = e.currentTarget.value;
              setText(next);
              const parsed = parseDraft(next);
              if (parsed.ok) {
                touch("");
                onChange(parsed.value);
              }
            }}
          />
          {draft.ok ? null : (
            <div class="field-error" role="alert">
              Line {draft.line}, column {draft.column}: {draft.message}
            </div>
          )}
        </div>
      )}
      <ProblemSummary problems={problems} ok={draft.ok} pristine={touched.length === 0} />
    </div>
  );
}

function ProblemSummary({
  problems,
  ok,
  pristine,
}: {
  problems: Problem[];
  ok: boolean;
  pristine: boolean;
}) {
  if (!ok) return null;
  if (problems.length === 0) return <p class="valid-note">✓ Valid against the schema</p>;
  return (
    <div class={pristine ? "problems pending" : "problems"} role="status">
      <strong>
        {pristine
          ? "To fill in before sending:"
          : `${problems.length} problem${problems.length === 1 ? "" : "s"} before sending:`}
      </strong>
      <ul>
        {problems.slice(0, 8).map((p) => (
          <li key={p.pointer + p.message}>
            <code>
              {p.pointer === "" ? "(arguments)" : p.pointer.slice(1).replaceAll("/", ".")}
            </code>{" "}
            {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
