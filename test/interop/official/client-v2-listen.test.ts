import type { Client } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { connectV2 } from "../support/clients.ts";

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe("official v2 client listen() against the Worker", () => {
  it("receives list changes announced by another request", async () => {
    client = await connectV2({ pin: "2026-07-28" });
    const changed = new Promise<void>((resolve) =>
      client?.setNotificationHandler("notifications/tools/list_changed", () => resolve()),
    );
    const subscription = await client.listen({ toolsListChanged: true }, { timeout: 10_000 });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
    await changed;
    await subscription.close();
    expect(await subscription.closed).toBe("local");
  });

  it("receives updates of a subscribed resource", async () => {
    client = await connectV2({ pin: "2026-07-28" });
    const updated = new Promise<string>((resolve) =>
      client?.setNotificationHandler("notifications/resources/updated", (notification) =>
        resolve(notification.params.uri),
      ),
    );
    const subscription = await client.listen({
      resourceSubscriptions: ["test://watched-resource"],
    });
    await client.callTool({ name: "test_trigger_resource_update", arguments: {} });
    expect(await updated).toBe("test://watched-resource");
    await subscription.close();
  });
});
