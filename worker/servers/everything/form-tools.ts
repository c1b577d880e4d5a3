import * as z from "zod";
import { tool } from "../../mcp/index.ts";

const Person = z.object({
  name: z.string().min(1).describe("Full name"),
  email: z.email().describe("Where the invitation goes"),
});

const Location = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("room"),
      room: z.string().min(1).describe("Room name, e.g. Ada-3"),
    })
    .meta({ title: "Meeting room" }),
  z
    .object({
      kind: z.literal("video"),
      url: z.url().describe("Video call link"),
    })
    .meta({ title: "Video call" }),
]);

/** A tool whose arguments use every shape a form must handle: nesting, arrays of objects, variants. */
export const formTools = [
  tool({
    name: "schedule_meeting",
    title: "Schedule a meeting",
    description:
      "Schedules a meeting (nothing is sent anywhere): an organizer, attendees, a room or a video call, " +
      "an agenda and a reminder. Its arguments show nested objects, arrays of objects, variants and nullable fields.",
    input: z.object({
      title: z.string().min(3).max(120).describe("What the meeting is about"),
      organizer: Person.describe("Who runs it"),
      attendees: z
        .array(Person.extend({ optional: z.boolean().default(false).describe("May skip it") }))
        .min(1)
        .max(20)
        .describe("Who is invited"),
      location: Location.describe("Where it happens"),
      duration_minutes: z.number().int().min(15).max(240).default(30),
      priority: z.enum(["low", "normal", "high"]).default("normal"),
      agenda: z.array(z.string().min(1)).default([]).describe("Topics, in order"),
      reminder_minutes: z
        .number()
        .int()
        .min(0)
        .nullable()
        .default(null)
        .describe("Minutes before the start; null for no reminder"),
    }),
    output: z.object({
      summary: z.string(),
      invited: z.number().int(),
      where: z.string(),
      reminder: z.string().nullable(),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args) => ({
      summary: `${args.title}: ${args.duration_minutes} min, ${args.priority} priority, run by ${args.organizer.name}`,
      invited: args.attendees.length,
      where: args.location.kind === "room" ? `room ${args.location.room}` : args.location.url,
      reminder: args.reminder_minutes === null ? null : `${args.reminder_minutes} minutes before`,
    }),
  }),
];
