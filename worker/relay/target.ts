import { addressKind } from "./address.ts";
import { RelayRefusal } from "./refusal.ts";
import { hostListed, type RelaySettings } from "./settings.ts";

const DEV_NOTE = "(under `npm start` the relay reaches any public https host and loopback http)";

/**
 * The URL the relay may fetch for this request, or a refusal naming the rule: http(s) only, no
 * credentials in the URL, never an internal address, loopback only in local development, and
 * outside it https to a `RELAY_HOSTS` host on the default port. Redirect targets go through here
 * too. Names are not resolved (a Worker has no resolver, and a check before the fetch could be
 * answered differently at the fetch): a deployed Worker's fetches leave from Cloudflare's
 * network, which does not route to private addresses, and the allowlist names the hosts.
 */
export function checkTarget(text: string, settings: RelaySettings): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RelayRefusal(400, "bad-target", "The relay target is not an absolute URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new RelayRefusal(400, "scheme", `The relay only forwards http(s), not ${url.protocol}.`);
  if (url.username !== "" || url.password !== "")
    throw new RelayRefusal(
      400,
      "credentials-in-url",
      "The relay refuses URLs with credentials in them; send them as a header instead.",
    );
  const kind = addressKind(url.hostname);
  if (kind === "internal")
    throw new RelayRefusal(
      403,
      "internal-address",
      `The relay never reaches private, link-local, multicast, metadata or other internal addresses (${url.hostname}).`,
    );
  if (kind === "loopback") {
    if (settings.dev) return url;
    throw new RelayRefusal(
      403,
      "loopback",
      `The relay reaches loopback addresses only in local development ${DEV_NOTE}.`,
    );
  }
  if (url.port !== "" && url.port !== "80" && url.port !== "443")
    throw new RelayRefusal(
      403,
      "port",
      `The relay only reaches ports 80 and 443 (not ${url.port}), except on loopback in local development.`,
    );
  if (url.protocol !== "https:")
    throw new RelayRefusal(403, "scheme", `The relay reaches public hosts over https only.`);
  if (settings.hosts.length === 0 && !settings.dev)
    throw new RelayRefusal(
      403,
      "relay-off",
      `The relay is off on this deployment: list the hosts it may reach in RELAY_HOSTS (e.g. "api.example.com,*.example.org") ${DEV_NOTE}.`,
    );
  if (settings.hosts.length > 0 && !hostListed(settings.hosts, url.hostname))
    throw new RelayRefusal(
      403,
      "host-not-listed",
      `${url.hostname} is not in RELAY_HOSTS, the hosts this relay may reach; add it there to relay to it.`,
    );
  return url;
}
