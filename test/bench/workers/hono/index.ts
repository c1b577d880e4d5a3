import { Hono } from "hono";

// The bare Worker's job through Hono's router and context.
const app = new Hono();

app.post("/", async (c) => {
  const body = await c.req.json<{ id?: string | number }>();
  return c.json({
    jsonrpc: "2.0",
    id: body.id ?? null,
    result: { content: [{ type: "text", text: "ok" }] },
  });
});

export default app;
