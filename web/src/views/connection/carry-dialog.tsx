import { useEffect, useRef } from "preact/hooks";
import { carryQuestion } from "../../state/credentials.ts";

/**
 * Asks before credentials entered for one server go to another. Not sending is the default
 * (focused first, and what Escape does): a token given for one server is rarely meant for
 * another, and some servers fail on a token they did not issue.
 */
export function CarryDialog() {
  const question = carryQuestion.value;
  const ref = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (question && !ref.current?.open) {
      ref.current?.showModal();
      keep.current?.focus();
    }
    if (!question) ref.current?.close();
  }, [question]);
  if (!question) return <dialog ref={ref} />;
  const names = question.names.join(", ");
  return (
    <dialog
      ref={ref}
      class="carry-dialog"
      role="alertdialog"
      aria-labelledby="carry-title"
      aria-describedby="carry-detail"
      onCancel={(e) => {
        e.preventDefault();
        question.answer(false);
      }}
    >
      <h2 id="carry-title">Send your {names} to another server?</h2>
      <p id="carry-detail">
        You entered {names} for <code class="break">{question.from}</code>. The page is now
        connecting to <code class="break">{question.to}</code>, which has no headers of its own
        here. A token is usually meant for the server that issued it.
      </p>
      <div class="button-row">
        <button ref={keep} type="button" class="primary" onClick={() => question.answer(false)}>
          Connect without it
        </button>
        <button type="button" onClick={() => question.answer(true)}>
          Send it to {question.to}
        </button>
      </div>
    </dialog>
  );
}
