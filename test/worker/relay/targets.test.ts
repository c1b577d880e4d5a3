import { describe, expect, it } from "vitest";
import { addressKind } from "../../../worker/relay/address.ts";
import { relaySettings } from "../../../worker/relay/settings.ts";
import { checkTarget } from "../../../worker/relay/target.ts";
import { DEPLOYED, DEPLOYED_SECRETS, LOCAL, refusal, relay } from "./support.ts";

const dev = relaySettings({ RELAY_DEV: "on" } as unknown as Cloudflare.Env, new Request(LOCAL));
const listed = relaySettings(
  { RELAY_HOSTS: "api.example.com, *.example.org" } as unknown as Cloudflare.Env,
  new Request(DEPLOYED),
);
const ruleOf = (url: string, settings = dev) => {
  try {
    checkTarget(url, settings);
    return "allowed";
  } catch (error) {
    return (error as { rule: string }).rule;
  }
};

describe("the relay never reaches an internal address, however it is spelled", () => {
  it.each([
    "http://10.0.0.1/mcp",
    "http://192.168.1.10/mcp",
    "http://172.16.5.4/mcp",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.100.100.200/",
    "http://0.0.0.0/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://2852039166/", // 169.254.169.254 in decimal
    "http://0xA9FEA9FE/", // in hex
    "http://0251.0376.0251.0376/", // in octal
    "http://0xa9.254.169.254/", // mixed
    "http://169.254.43518/", // short form
    "http://10.1/",
    "http://169.254.169.254./", // trailing dot
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[fd00:ec2::254]/", // AWS's IPv6 metadata
    "http://[::ffff:169.254.169.254]/", // IPv4-mapped
    "http://[::ffff:127.0.0.1]/", // loopback, mapped: not the plain loopback spelling
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/", // IPv4-compatible
    "http://[64:ff9b::a9fe:a9fe]/", // NAT64
    "http://[2002:a9fe:a9fe::1]/", // 6to4 of the metadata address
    "http://[ff02::1]/", // multicast
    "http://[::]/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://printer.local/",
    "http://intranet/",
  ])("refuses %s", (url) => {
    expect(ruleOf(url)).toBe("internal-address");
    expect(ruleOf(url, listed)).toBe("internal-address");
  });

  it("reads the URL parser's spellings of IPv4 as the address they are", () => {
    expect(addressKind(new URL("http://2130706433/").hostname)).toBe("loopback");
    expect(addressKind(new URL("http://0x7f.1/").hostname)).toBe("loopback");
    expect(addressKind(new URL("http://0177.0.0.1./").hostname)).toBe("loopback");
    expect(addressKind(new URL("http://8.8.8.8/").hostname)).toBe("public");
    expect(addressKind(new URL("http://[2606:4700::1111]/").hostname)).toBe("public");
  });

  it("refuses loopback outside local development, in every spelling", () => {
    for (const url of [
      "https://127.0.0.1/",
      "https://2130706433/",
      "https://127.1/",
      "https://localhost/",
      "https://localhost./",
      "https://app.localhost/",
      "https://[::1]/",
    ])
      expect(ruleOf(url, listed), url).toBe("loopback");
  });

  it("reaches loopback on any port in local development", () => {
    expect(ruleOf("http://127.0.0.1:6274/mcp")).toBe("allowed");
    expect(ruleOf("http://localhost:3000/mcp")).toBe("allowed");
    expect(ruleOf("http://[::1]:8080/")).toBe("allowed");
  });
});

describe("the relay reaches only what its settings allow", () => {
  it("refuses URLs carrying credentials", () => {
    expect(ruleOf("https://user:pass@api.example.com/mcp", listed)).toBe("credentials-in-url");
    expect(ruleOf("http://user@127.0.0.1:3000/mcp")).toBe("credentials-in-url");
  });

  it("refuses schemes other than http(s), and a target that is not a URL", () => {
    expect(ruleOf("file:///etc/passwd")).toBe("scheme");
    expect(ruleOf("ftp://example.com/")).toBe("scheme");
    expect(ruleOf("/mcp")).toBe("bad-target");
  });

  it("refuses public hosts over plain http, even in local development", () => {
    expect(ruleOf("http://example.com/mcp")).toBe("scheme");
    expect(ruleOf("http://api.example.com/mcp", listed)).toBe("scheme");
  });

  it("refuses ports other than 80 and 443 on public hosts", () => {
    expect(ruleOf("https://example.com:8443/mcp")).toBe("port");
    expect(ruleOf("https://api.example.com:22/", listed)).toBe("port");
    expect(ruleOf("https://api.example.com:443/mcp", listed)).toBe("allowed");
  });

  it("matches RELAY_HOSTS exactly, and *. patterns on subdomains only", () => {
    expect(ruleOf("https://api.example.com/mcp", listed)).toBe("allowed");
    expect(ruleOf("https://API.Example.com./mcp", listed)).toBe("allowed");
    expect(ruleOf("https://mcp.example.org/mcp", listed)).toBe("allowed");
    expect(ruleOf("https://a.b.example.org/mcp", listed)).toBe("allowed");
    expect(ruleOf("https://example.org/mcp", listed)).toBe("host-not-listed");
    expect(ruleOf("https://evil-example.org/mcp", listed)).toBe("host-not-listed");
    expect(ruleOf("https://api.example.com.evil.net/mcp", listed)).toBe("host-not-listed");
    expect(ruleOf("https://other.example.com/mcp", listed)).toBe("host-not-listed");
  });

  it("reaches any public https host in local development", () => {
    expect(ruleOf("https://mcp.example.net/mcp")).toBe("allowed");
  });
});

describe("a deployed Worker without RELAY_HOSTS", () => {
  it("refuses every relay request, naming RELAY_HOSTS", async () => {
    for (const token of [null, "made-up"]) {
      const response = await relay({
        origin: DEPLOYED,
        target: "https://api.example.com/mcp",
        token,
        vars: {},
      });
      const found = await refusal(response);
      expect(found).toMatchObject({ status: 403, rule: "relay-off", header: "relay-off" });
      expect(found.message).toMatch(/RELAY_HOSTS/);
    }
  });

  it("is not in local development because of RELAY_DEV alone", async () => {
    const response = await relay({
      origin: DEPLOYED,
      target: "https://api.example.com/mcp",
      token: null,
      vars: { RELAY_DEV: "on" },
    });
    expect((await refusal(response)).rule).toBe("relay-off");
  });

  it("is not in local development on localhost without RELAY_DEV", async () => {
    const response = await relay({ target: "http://127.0.0.1:9/mcp", token: null, vars: {} });
    expect((await refusal(response)).rule).toBe("relay-off");
  });

  it("refuses a host not on the list once RELAY_HOSTS is set, naming it", async () => {
    const vars = { RELAY_HOSTS: "api.example.com", ...DEPLOYED_SECRETS };
    const response = await relay({ origin: DEPLOYED, target: "https://evil.example.net/", vars });
    const found = await refusal(response);
    expect(found).toMatchObject({ status: 403, rule: "host-not-listed" });
    expect(found.message).toMatch(/evil\.example\.net is not in RELAY_HOSTS/);
  });
});
