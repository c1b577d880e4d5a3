import * as z from "zod";
import { ErrorCode, prompt, RpcError } from "../../mcp/index.ts";

type Incident = {
  id: number;
  title: string;
  service: string;
  severity: string;
  status: string;
  opened_at: string;
  resolved_at: string | null;
  summary: string;
};
type LogLine = { ts: string; service: string; level: string; message: string; trace_id: string };

export const prompts = [
  prompt({
    name: "triage_incident",
    title: "Triage an incident",
    description:
      "Asks the model to triage one incident, with its record and latest error logs from the database",
    args: z.object({
      incident_id: z.string().describe("The incident's id (see the incidents table)"),
    }),
    complete: {
      incident_id: async (value, _context, ctx) => {
        const { results } = await ctx.env.ANALYTICS_DB.prepare(
          "SELECT id FROM incidents ORDER BY id",
        ).all<{ id: number }>();
        return results.map((r) => String(r.id)).filter((id) => id.startsWith(value));
      },
    },
    get: async ({ incident_id }, ctx) => {
      const db = ctx.env.ANALYTICS_DB;
      const id = Number(incident_id);
      const incident = Number.isInteger(id)
        ? await db.prepare("SELECT * FROM incidents WHERE id = ?1").bind(id).first<Incident>()
        : null;
      if (!incident) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Unknown incident "${incident_id}". Use completion or query the incidents table for valid ids.`,
          {
            incident_id,
          },
        );
      }
      const { results: logs } = await db
        .prepare(
          "SELECT ts, service, level, message, trace_id FROM error_logs WHERE incident_id = ?1 ORDER BY ts DESC LIMIT 20",
        )
        .bind(id)
        .all<LogLine>();
      const lines = logs
        .map(
          (l) =>
            `${l.ts} ${l.level.toUpperCase()} [${l.service}] ${l.message} (trace ${l.trace_id})`,
        )
        .join("\n");
      return {
        description: `Triage of incident ${id}: ${incident.title}`,
        messages: [
          {
            role: "user",
            content: {
              type: "resource",
              resource: {
                uri: `d1://analytics/incidents/${id}`,
                mimeType: "application/json",
                text: JSON.stringify(incident, null, 2),
              },
            },
          },
          {
            role: "user",
            content: {
              type: "text",
              text:
                `Triage incident ${id} (${incident.severity}, ${incident.status}) on ${incident.service}: "${incident.title}".\n\n` +
                `Latest ${logs.length} error log lines linked to it:\n${lines || "(none)"}\n\n` +
                "Say what is most likely broken, how sure you are, what to check next, and whether the severity fits.",
            },
          },
        ],
      };
    },
  }),
];
