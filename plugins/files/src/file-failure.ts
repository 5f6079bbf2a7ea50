import { PathRefusedError, errorCode, errorMessage, errorResult, type ToolResult } from "@weft/sdk";

/** A filesystem failure as the model reads it, naming the path it asked for. */
export function fileFailure(error: unknown, requested: string): ToolResult {
  if (error instanceof PathRefusedError) return errorResult(error.message);
  switch (errorCode(error)) {
    case "ENOENT":
      return errorResult(`not found: ${requested}`);
    case "ENOTDIR":
      return errorResult(`not found: ${requested} (a part of the path is a file)`);
    case "EISDIR":
      return errorResult(`${requested} is a folder, not a file`);
    case "EACCES":
    case "EPERM":
      return errorResult(`permission denied: ${requested}`);
    default:
      return errorResult(`${requested}: ${errorMessage(error)}`);
  }
}
