import { redactSecrets } from "./secret-redaction.js";

/** Where plugins and the kernel report warnings and diagnostics. Never for the model's eyes. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Prints warnings and errors to stderr with a `weft:` prefix; debug and info stay quiet. */
export const stderrLogger: Logger = {
  debug() {},
  info() {},
  warn(message) {
    process.stderr.write(`weft: warning: ${redactSecrets(message)}\n`);
  },
  error(message) {
    process.stderr.write(`weft: error: ${redactSecrets(message)}\n`);
  },
};

/** A logger that keeps every line, for tests and for hosts that show warnings their own way. */
export interface MemoryLogger extends Logger {
  readonly lines: { level: keyof Logger; message: string }[];
  warnings(): string[];
}

export function memoryLogger(): MemoryLogger {
  const lines: MemoryLogger["lines"] = [];
  const record = (level: keyof Logger) => (message: string) => void lines.push({ level, message });
  return {
    lines,
    debug: record("debug"),
    info: record("info"),
    warn: record("warn"),
    error: record("error"),
    warnings: () => lines.filter((line) => line.level === "warn").map((line) => line.message),
  };
}
