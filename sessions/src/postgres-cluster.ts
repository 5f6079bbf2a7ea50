import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@weft/sdk/testing";

/** A throwaway PostgreSQL cluster in a temp folder, listening on 127.0.0.1 only. */
export interface PostgresCluster {
  url: string;
  stop(): void;
}

/** The env var that names an already running server (scripts/ci-postgres.sh sets it). */
export const POSTGRES_URL_VARIABLE = "WEFT_TEST_POSTGRES_URL";

/** Where Debian's postgresql package puts its binaries (initdb is not on PATH there). */
function binDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => existsSync(join(root, name, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

/**
 * Starts a cluster with initdb and pg_ctl. As root it runs them as the `postgres` user, since initdb
 * refuses root. Throws, naming both ways out, when there are no binaries: the PostgreSQL tests must
 * never pass by not running.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = binDir();
  if (!bin) {
    throw new Error(
      `the PostgreSQL store tests need a server: set ${POSTGRES_URL_VARIABLE} to a postgres:// URL, or install PostgreSQL's binaries (bash scripts/ci-postgres.sh installs Debian's postgresql package and runs the tests)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "weft-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]] : [join(bin, command), args];
    const result = spawnSync(file, argv, { encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const port = await freePort();
  run("initdb", ["-D", data, "-U", "weft", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  run("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-w", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "start"]);
  let stopped = false;
  return {
    url: `postgres://weft@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
