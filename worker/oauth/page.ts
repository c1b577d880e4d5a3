import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import type { DemoUser } from "./options.ts";

/** Everything from a client (its name, its URLs, the scopes it asks for) is escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

// The playground's palette (web/src/styles.css), light and dark; no script, no external file.
const STYLE = `
:root{--bg:#f7f7f9;--panel:#fff;--text:#1d2026;--muted:#5a6170;--border:#d7dae0;--accent:#2457c5;
--accent-text:#fff;--warn-bg:#fff5d6;--warn:#7a5200;--error:#b3261e;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#15171c;--panel:#1d2027;--text:#e6e8ec;--muted:#a3aab8;
--border:#353a45;--accent:#7aa2ff;--accent-text:#0f1115;--warn-bg:#3a3016;--warn:#ffd772;--error:#ff8a80}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,sans-serif}
main{max-width:44rem;margin:2rem auto;padding:1.5rem;background:var(--panel);border:1px solid var(--border);border-radius:10px}
h1{font-size:1.3rem;margin:0 0 .75rem}
p,ul{margin:.5rem 0}
.muted{color:var(--muted)}
.warn{background:var(--warn-bg);color:var(--warn);padding:.5rem .75rem;border-radius:6px}
fieldset{border:1px solid var(--border);border-radius:6px;margin:1rem 0;padding:.5rem .75rem}
legend{padding:0 .25rem;font-weight:600}
label{display:block;padding:.2rem 0}
.actions{display:flex;gap:.75rem;margin-top:1rem}
button{font:inherit;padding:.45rem 1.1rem;border-radius:6px;border:1px solid var(--border);background:var(--panel);color:var(--text);cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:var(--accent-text)}
button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
code{overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin:1rem 0}
caption{text-align:left;font-weight:600;padding-bottom:.25rem}
th,td{border-bottom:1px solid var(--border);padding:.35rem .4rem;text-align:left;vertical-align:top}`;

/** A whole page: the shell every sign-in page shares. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** What the consent page shows: who asks, for which server, with which scopes, as whom. */
export type ConsentView = {
  service: string;
  details: ConsentDescription;
  /** A CIMD client whose host the operator has not listed as known. */
  unknownHost: boolean;
  server: { name: string; resource: string };
  scopes: readonly { scope: string; words: string }[];
  /** The development login's users, when it is offered. */
  users: readonly DemoUser[];
  /** The upstream provider's name, when signing in through it is offered. */
  upstream?: string;
  handle: string;
};

export function consentPage(view: ConsentView): string {
  const { details } = view;
  const name = escapeHtml(details.clientName);
  const origin = details.clientDomain
    ? `<p>Published by <strong>${escapeHtml(details.clientDomain)}</strong> (its metadata document).</p>`
    : `<p class="muted">This app registered itself: its name is not verified.</p>`;
  const unknown = view.unknownHost
    ? `<p class="warn" role="note"><strong>Unknown app host.</strong> This server has never been told about ${escapeHtml(details.clientDomain ?? "")}. Continue only if you trust it.</p>`
    : "";
  const local = details.redirectIsLoopback
    ? `<p class="warn" role="note"><strong>Access goes to an app on your computer.</strong> Continue only if you just started signing in from it.</p>`
    : "";
  const scopes = view.scopes
    .map(
      ({ scope, words }) =>
        `<li>${escapeHtml(words)} <span class="muted">(<code>${escapeHtml(scope)}</code>)</span></li>`,
    )
    .join("");
  const choices = [
    ...view.users.map(
      (user, index) =>
        `<label><input type="radio" name="user" value="${escapeHtml(user.id)}"${index === 0 ? " checked" : ""}> ${escapeHtml(user.name)} <span class="muted">(development login)</span></label>`,
    ),
    ...(view.upstream
      ? [
          `<label><input type="radio" name="user" value="upstream"${view.users.length === 0 ? " checked" : ""}> Sign in with ${escapeHtml(view.upstream)}</label>`,
        ]
      : []),
  ].join("");
  return page(
    `Allow ${details.clientName} to use ${view.server.name}?`,
    `<h1>Allow <strong>${name}</strong> to use ${escapeHtml(view.server.name)}?</h1>
${origin}${unknown}
<p>It will reach <code>${escapeHtml(view.server.resource)}</code> on ${escapeHtml(view.service)} for you, and access will be sent to <strong>${escapeHtml(details.redirectHost)}</strong>.</p>
${local}
<form method="post">
<input type="hidden" name="handle" value="${escapeHtml(view.handle)}">
<fieldset><legend>It asks to</legend><ul>${scopes || "<li>Know who you are</li>"}</ul></fieldset>
<fieldset><legend>Sign in as</legend>${choices}</fieldset>
<div class="actions"><button class="primary" name="decision" value="allow">Allow</button><button name="decision" value="deny">Deny</button></div>
</form>`,
  );
}

/** A page that only says something (an error, a notice), with its status. */
export function messagePage(status: number, title: string, message: string): Response {
  return htmlResponse(
    page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`),
    status,
  );
}

/** An HTML response no other site may frame, cache or sniff. */
export function htmlResponse(html: string, status = 200, headers = new Headers()): Response {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set("X-Frame-Options", "DENY");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "no-referrer");
  // Its own policy beside the library's (both apply): no script, nothing loaded, no framing.
  headers.append(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  );
  return new Response(html, { status, headers });
}
