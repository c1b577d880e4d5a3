import { describe, expect, it } from "vitest";
import { durableObjects } from "../../../worker/durable/index.ts";
import { hubServer } from "../../../worker/hub/hub-server.ts";
import { defineServer, tool, storedTasks } from "../../../worker/mcp/index.ts";
import { mcpRequest } from "../../support/mcp-request.ts";
import { type Message } from "../../support/reply.ts";
import { serve } from "../custom-server.ts";
import { inProcess } from "./support.ts";
describe("tasks through the hub", () => {
  const taskful = defineServer({
    name: "taskful",
    version: "1",
    tasks: storedTasks,
    tools: [
      tool({
        name: "job",
        description: "A quick task",
        task: { mode: "optional", pollIntervalMs: 50 },
        run: () => "job done",
      }),
    ],
  });
  const tasksHub = serve(
    hubServer({
      name: "tasks-hub",
      upstreams: (env) => [
        inProcess("t", taskful, { durable: () => durableObjects({ tasks: env.MCP_TASKS }) }),
      ],
    }),
  );
  const withTasks = { capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } };

  it("names an upstream task t__<id> and routes tasks/get to it", async () => {
    const created = await tasksHub.send(
      mcpRequest("tools/call", { name: "t__job", arguments: {} }, withTasks),
      "tools/call",
    );
    const taskId: string = created.final?.result.taskId;
    expect(created.final?.result).toMatchObject({ resultType: "task", status: "working" });
    expect(taskId).toMatch(/^t__[0-9a-f]{64}$/);
    let task: Message["result"];
    for (let i = 0; i < 50 && task?.status !== "completed"; i++) {
      await new Promise((r) => setTimeout(r, 30));
      task = (
        await tasksHub.send(
          mcpRequest("tasks/get", { taskId }, { ...withTasks, headers: { "Mcp-Name": taskId } }),
          "tasks/get",
        )
      ).final?.result;
    }
    expect(task).toMatchObject({
      taskId,
      status: "completed",
      result: { content: [{ text: "job done" }] },
    });
  });

  it("refuses a task id that names no upstream of the hub", async () => {
    const { final } = await tasksHub.send(
      mcpRequest(
        "tasks/get",
        { taskId: "nobody__x" },
        { ...withTasks, headers: { "Mcp-Name": "nobody__x" } },
      ),
      "tasks/get",
    );
    expect(final?.error).toMatchObject({
      code: -32602,
      message: 'Unknown task "nobody__x": it names no upstream of this hub.',
      data: { taskId: "nobody__x" },
    });
  });

  it("runs the call inline for a client without the extension", async () => {
    const { final } = await tasksHub.send(
      mcpRequest("tools/call", { name: "t__job", arguments: {} }),
      "tools/call",
    );
    expect(final?.result).toMatchObject({
      resultType: "complete",
      content: [{ text: "job done" }],
    });
  });
});
