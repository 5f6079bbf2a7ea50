/**
 * The least an MCP client over stdio can be: spawn the server, newline-delimited JSON-RPC, the
 * initialize handshake, `tools/list` and `tools/call`, answers matched to requests by id. No schema
 * validation, no capabilities, no notifications handled — the floor's lower bound for the MCP hop,
 * against which the official client's own cost shows.
 */
import { spawn } from "node:child_process";

export async function connectRpc({ command, args }) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"] });
  const pending = new Map();
  let nextId = 1;
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const message = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
      const waiter = pending.get(message.id);
      if (!waiter) continue;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    }
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });

  await request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-floor-rpc", version: "1.0.0" } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    listTools: () => request("tools/list", {}),
    callTool: ({ name, arguments: args }) => request("tools/call", { name, arguments: args }),
    async close() {
      child.stdin.end();
      child.kill();
      await exited;
    },
  };
}
