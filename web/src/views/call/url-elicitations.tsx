import { ErrorCode } from "../../../../shared/protocol/errors.ts";
import { UrlElicitationRequiredDataSchema } from "../../../../shared/protocol/input-requests.ts";
import { safeHref } from "../../lib/markdown.ts";

/**
 * What a 2025 server's -32042 asks of the user: the pages to open (each with the server's
 * message) before calling again. Nothing for any other error, or for data of another shape.
 */
export function UrlElicitations({ code, data }: { code: number | undefined; data: unknown }) {
  if (code !== ErrorCode.LegacyUrlElicitationRequired) return null;
  const parsed = UrlElicitationRequiredDataSchema.safeParse(data);
  if (!parsed.success || parsed.data.elicitations.length === 0) return null;
  return (
    <div class="url-elicitations">
      <p>The server asks you to open these pages first, then to send the call again:</p>
      <ul>
        {parsed.data.elicitations.map((e, i) => {
          const href = safeHref(e.url);
          return (
            <li key={i}>
              {e.message}{" "}
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {e.url}
                </a>
              ) : (
                <code>{e.url}</code>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
