import { resource, resourceTemplate } from "../../mcp/index.ts";
import { RED_PIXEL_PNG } from "./media.ts";

const ITEM_COUNT = 25;

export const resources = [
  resource({
    uri: "test://static-text",
    name: "static-text",
    title: "Static Text Resource",
    description: "A static text resource for testing",
    mimeType: "text/plain",
    read: () => "This is the content of the static text resource.",
  }),
  resource({
    uri: "test://static-binary",
    name: "static-binary",
    title: "Static Binary Resource",
    description: "A static binary resource (image) for testing",
    mimeType: "image/png",
    read: () => ({ blob: RED_PIXEL_PNG }),
  }),
  resource({
    uri: "test://watched-resource",
    name: "watched-resource",
    title: "Watched Resource",
    description: "A resource clients may subscribe to",
    mimeType: "text/plain",
    cache: { ttlMs: 0, cacheScope: "private" },
    read: () => "Watched resource content",
  }),
];

export const resourceTemplates = [
  resourceTemplate({
    uriTemplate: "test://template/{id}/data",
    name: "template",
    title: "Resource Template",
    description: "A resource template with parameter substitution",
    mimeType: "application/json",
    complete: {
      id: (value) => ["123", "456", "789"].filter((id) => id.startsWith(value)),
    },
    read: ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  }),
  resourceTemplate({
    uriTemplate: "test://items/{n}",
    name: "item",
    title: "Numbered item",
    description: `One of ${ITEM_COUNT} numbered items; all are listed, across several pages of resources/list`,
    mimeType: "text/plain",
    complete: {
      n: (value) =>
        Array.from({ length: ITEM_COUNT }, (_, i) => String(i + 1)).filter((n) =>
          n.startsWith(value),
        ),
    },
    list: () =>
      Array.from({ length: ITEM_COUNT }, (_, i) => ({
        uri: `test://items/${i + 1}`,
        name: `item-${i + 1}`,
        description: `Numbered item ${i + 1}`,
        mimeType: "text/plain",
      })),
    read: ({ n }) => {
      const index = Number(n);
      return Number.isInteger(index) && index >= 1 && index <= ITEM_COUNT
        ? `Item number ${index}`
        : undefined;
    },
  }),
];
