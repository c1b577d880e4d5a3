import * as z from "zod";
import { prompt } from "../../mcp/index.ts";
import { RED_PIXEL_PNG } from "./media.ts";

export const prompts = [
  prompt({
    name: "test_simple_prompt",
    title: "Simple Test Prompt",
    description: "A simple prompt without arguments",
    get: () => "This is a simple prompt for testing.",
  }),
  prompt({
    name: "test_prompt_with_arguments",
    title: "Prompt With Arguments",
    description: "A prompt with required arguments",
    args: z.object({
      arg1: z.string().describe("First test argument"),
      arg2: z.string().describe("Second test argument"),
    }),
    complete: {
      arg1: (value) => ["test-alpha", "test-beta", "sample"].filter((v) => v.startsWith(value)),
    },
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  }),
  prompt({
    name: "test_prompt_with_embedded_resource",
    title: "Prompt With Embedded Resource",
    description: "A prompt that includes an embedded resource",
    args: z.object({ resourceUri: z.string().describe("URI of the resource to embed") }),
    get: ({ resourceUri }) => [
      {
        role: "user",
        content: {
          type: "resource",
          resource: {
            uri: resourceUri,
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          },
        },
      },
      {
        role: "user",
        content: { type: "text", text: "Please process the embedded resource above." },
      },
    ],
  }),
  prompt({
    name: "test_prompt_with_image",
    title: "Prompt With Image",
    description: "A prompt that includes image content",
    get: () => [
      { role: "user", content: { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }),
  prompt({
    name: "summarize_text",
    title: "Summarize text",
    description:
      "Asks the model to summarize a text in a given style (optional argument with completion)",
    args: z.object({
      text: z.string().describe("The text to summarize"),
      style: z.string().optional().describe("bullet-points, one-line or paragraph"),
    }),
    complete: {
      style: (value) =>
        ["bullet-points", "one-line", "paragraph"].filter((s) => s.startsWith(value)),
    },
    get: ({ text, style }) => ({
      description: `Summary request (${style ?? "paragraph"})`,
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Summarize as ${style ?? "paragraph"}:\n\n${text}` },
        },
      ],
    }),
  }),
];
