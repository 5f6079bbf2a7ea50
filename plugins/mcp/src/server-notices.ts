import type { Client } from "@modelcontextprotocol/client";
import type { McpLogLevel } from "./config.js";

/** What a server tells its host besides tool results, as the manager reports it. */
export type ServerNotice =
  | { kind: "log"; level: McpLogLevel; logger?: string; data: unknown }
  | { kind: "prompts-changed" }
  | { kind: "resources-changed" }
  | { kind: "resource-updated"; uri: string };

/** Routes a server's log messages, list changes and resource updates to one callback. */
export function routeNotices(client: Client, notify: (notice: ServerNotice) => void): void {
  client.setNotificationHandler("notifications/message", ({ params }) =>
    notify({ kind: "log", level: params.level, ...(params.logger === undefined ? {} : { logger: params.logger }), data: params.data }),
  );
  client.setNotificationHandler("notifications/prompts/list_changed", () => notify({ kind: "prompts-changed" }));
  client.setNotificationHandler("notifications/resources/list_changed", () => notify({ kind: "resources-changed" }));
  client.setNotificationHandler("notifications/resources/updated", ({ params }) => notify({ kind: "resource-updated", uri: params.uri }));
}

/** A log message's data as one line of text for weft's logger. */
export function logText(data: unknown): string {
  return typeof data === "string" ? data : JSON.stringify(data);
}
