import { describe, expectTypeOf, it } from "vitest";
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  ListenNotification,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  McpClient,
  ReadResourceResult,
  Reply,
  ServerDescription,
  Subscription,
  Task,
  TaskHandle,
} from "../../../shared/client/index.ts";

// These checks run when the tests are type-checked (`npm run typecheck`); at run time they are
// no-ops, and no client is ever called.
describe("the client's results are typed by method", () => {
  it("types every list and read by its result schema", () => {
    expectTypeOf<McpClient["listTools"]>().returns.resolves.toEqualTypeOf<Reply<ListToolsResult>>();
    expectTypeOf<McpClient["listPrompts"]>().returns.resolves.toEqualTypeOf<
      Reply<ListPromptsResult>
    >();
    expectTypeOf<McpClient["listResources"]>().returns.resolves.toEqualTypeOf<
      Reply<ListResourcesResult>
    >();
    expectTypeOf<McpClient["listResourceTemplates"]>().returns.resolves.toEqualTypeOf<
      Reply<ListResourceTemplatesResult>
    >();
    expectTypeOf<McpClient["readResource"]>().returns.resolves.toEqualTypeOf<
      Reply<ReadResourceResult>
    >();
    expectTypeOf<McpClient["getPrompt"]>().returns.resolves.toEqualTypeOf<Reply<GetPromptResult>>();
    expectTypeOf<McpClient["complete"]>().returns.resolves.toEqualTypeOf<Reply<CompleteResult>>();
    expectTypeOf<McpClient["discover"]>().returns.resolves.toEqualTypeOf<
      Reply<ServerDescription>
    >();
  });

  it("types a tool call's result, and a task only when the caller asks for one", () => {
    const call = (client: McpClient) => client.callTool("add", { a: 1 });
    expectTypeOf(call).returns.resolves.toEqualTypeOf<Reply<CallToolResult>>();
    const task = (client: McpClient) => client.callTool("scan", {}, { returnTask: true });
    expectTypeOf(task).returns.resolves.toEqualTypeOf<Reply<CallToolResult | TaskHandle>>();
    expectTypeOf<CallToolResult["isError"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<TaskHandle["task"]>().toEqualTypeOf<Task>();
  });

  it("yields listen notifications from a subscription", () => {
    expectTypeOf<McpClient["listen"]>().returns.resolves.toEqualTypeOf<Subscription>();
    expectTypeOf<Subscription["next"]>().returns.resolves.toEqualTypeOf<
      IteratorResult<ListenNotification, undefined>
    >();
  });
});
