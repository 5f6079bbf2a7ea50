import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import type { Static } from "typebox";
import { Type, errorCode, isRecord } from "@weft/sdk";

/** One trusted config: its real path and the hash of what it (and the files it names) said when trusted. */
const TrustEntrySchema = Type.Object({ path: Type.String(), hash: Type.String(), trustedAt: Type.String() });
export type TrustEntry = Static<typeof TrustEntrySchema>;

/**
 * Where trust is kept: `$WEFT_CONFIG_DIR/trust.json`, else `$XDG_CONFIG_HOME/weft/trust.json`, else
 * `~/.config/weft/trust.json`. Outside every project, so a cloned repository cannot trust itself.
 */
export function trustStoreFile(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.WEFT_CONFIG_DIR ?? path.join(env.XDG_CONFIG_HOME ?? path.join(homedir(), ".config"), "weft");
  return path.join(dir, "trust.json");
}

export async function readTrust(env: NodeJS.ProcessEnv = process.env): Promise<TrustEntry[]> {
  try {
    const parsed: unknown = JSON.parse(await readFile(trustStoreFile(env), "utf8"));
    const trusted: unknown[] = isRecord(parsed) && Array.isArray(parsed.trusted) ? parsed.trusted : [];
    // typebox's checker loads only for a start that reads trust, not with every import of core.
    const { Value } = await import("@weft/sdk/typebox-lite");
    // An entry of another shape (a hand edit) trusts nothing: it is left out, never matched.
    return trusted.filter((entry): entry is TrustEntry => Value.Check(TrustEntrySchema, entry));
  } catch (error) {
    if (errorCode(error) === "ENOENT") return [];
    throw error;
  }
}

/** Whether this exact content of this config was trusted: a changed config is not. */
export async function isTrusted(file: string, hash: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return (await readTrust(env)).some((entry) => entry.path === file && entry.hash === hash);
}

/** Trusts `file` as it is now (replacing an older trust of it). */
export async function addTrust(file: string, hash: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const others = (await readTrust(env)).filter((entry) => entry.path !== file);
  await save([...others, { path: file, hash, trustedAt: new Date().toISOString() }], env);
}

/** Forgets `file`; false when it was not trusted. */
export async function revokeTrust(file: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const entries = await readTrust(env);
  const kept = entries.filter((entry) => entry.path !== file);
  if (kept.length === entries.length) return false;
  await save(kept, env);
  return true;
}

async function save(trusted: TrustEntry[], env: NodeJS.ProcessEnv): Promise<void> {
  const file = trustStoreFile(env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written whole then renamed, so a crash never leaves half a store.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ trusted }, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
