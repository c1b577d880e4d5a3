import { originOf, switchHeaders } from "./credentials.ts";
import { headerRows, headersOpen, targetUrl } from "./store.ts";

/** Opens the headers of the server the URL field names (each origin has its own). */
export function openHeaders(): void {
  const origin = originOf(targetUrl.value.trim());
  if (origin) switchHeaders(origin);
  headersOpen.value = true;
}

/** Opens the server's headers with an `Authorization: Bearer ` row first, ready for the token. */
export function addBearer(): void {
  openHeaders();
  const rows = headerRows.value;
  const at = rows.findIndex((r) => r.name.toLowerCase() === "authorization");
  const kept = rows[at];
  // A row left blank (a link names the header but never carries its value) gets the scheme.
  const first =
    kept && kept.value.trim() !== ""
      ? kept
      : { name: kept?.name ?? "Authorization", value: "Bearer " };
  headerRows.value = [first, ...rows.filter((_, j) => j !== at)];
  requestAnimationFrame(() => {
    const input = document.getElementById("hvalue-0");
    if (!(input instanceof HTMLInputElement)) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  });
}
