import { describe, expect, it } from "vitest";
import { UriTemplate } from "../../shared/uri-template.ts";
describe("URI templates", () => {
  it.each([
    ["test://template/{id}/data", "test://template/123/data", { id: "123" }],
    ["notes://{+path}", "notes://a/b/c", { path: "a/b/c" }],
    [
      "d1://tables/{table}/rows{?limit,offset}",
      "d1://tables/users/rows?limit=5",
      { table: "users", limit: "5" },
    ],
    ["d1://tables/{table}/rows{?limit}", "d1://tables/users/rows", { table: "users" }],
    ["files://{dir}{/name}", "files://docs/readme", { dir: "docs", name: "readme" }],
    // A query pair may only set a query variable: the path's id stays 5.
    ["items://{id}{?q}", "items://5?id=9&q=x", { id: "5", q: "x" }],
    ["items://x{?a}{&b}", "items://x?a=1&b=2", { a: "1", b: "2" }],
  ])("%s matches %s", (template, uri, vars) => {
    expect(new UriTemplate(template).match(uri)).toEqual(vars);
  });

  it.each([
    ["test://template/{id}/data", "test://template/1/2/data"],
    ["test://template/{id}/data", "other://template/1/data"],
  ])("%s does not match %s", (template, uri) => {
    expect(new UriTemplate(template).match(uri)).toBeUndefined();
  });

  it("expands values, encoding them", () => {
    expect(
      new UriTemplate("d1://t/{table}/rows{?limit}").expand({ table: "a b", limit: "5" }),
    ).toBe("d1://t/a%20b/rows?limit=5");
  });
});
