import { BlockList, isIP } from "node:net";

/** Which addresses the web tools may connect to. */
export interface NetworkPolicy {
  /** Connect to loopback, private, link-local, unique-local and multicast addresses too. */
  allowPrivateNetwork: boolean;
  /** Hosts (exact names or IP addresses) and CIDR ranges allowed although private. */
  allowHosts: string[];
  /** Name resolution; the system resolver by default (tests give their own). */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
  /** Called with the vetted address right before each connection (tests observe it). */
  onConnect?: (address: string, url: URL) => void;
}

// What a page from the internet must not make the process reach: this machine, its networks, the
// cloud metadata service (169.254.169.254), multicast and reserved space.
const PRIVATE_RANGES: [string, number, "ipv4" | "ipv6", string][] = [
  ["0.0.0.0", 8, "ipv4", "a reserved"],
  ["10.0.0.0", 8, "ipv4", "a private"],
  ["100.64.0.0", 10, "ipv4", "a shared (carrier NAT)"],
  ["127.0.0.0", 8, "ipv4", "a loopback"],
  ["169.254.0.0", 16, "ipv4", "a link-local"],
  ["172.16.0.0", 12, "ipv4", "a private"],
  ["192.0.0.0", 24, "ipv4", "a reserved"],
  ["192.168.0.0", 16, "ipv4", "a private"],
  ["198.18.0.0", 15, "ipv4", "a reserved"],
  ["224.0.0.0", 4, "ipv4", "a multicast"],
  ["240.0.0.0", 4, "ipv4", "a reserved"],
  ["::", 128, "ipv6", "an unspecified"],
  ["::1", 128, "ipv6", "a loopback"],
  ["fc00::", 7, "ipv6", "a unique-local"],
  ["fe80::", 10, "ipv6", "a link-local"],
  ["ff00::", 8, "ipv6", "a multicast"],
];

/** Why `address` may not be reached under `policy` ("a private address"), or undefined when it may. */
export function addressRefusal(address: string, host: string, policy: NetworkPolicy): string | undefined {
  if (policy.allowPrivateNetwork) return undefined;
  const plain = unmapped(address);
  const family = isIP(plain) === 6 ? "ipv6" : "ipv4";
  const range = PRIVATE_RANGES.find(([network, prefix, rangeFamily]) => rangeFamily === family && inRange(plain, network, prefix, family));
  if (!range) return undefined;
  if (policy.allowHosts.some((allowed) => allows(allowed, host, plain, family))) return undefined;
  return `${range[3]} address`;
}

/**
 * The address to connect to for `url`: the host itself when it is an IP address, else the first
 * address it resolves to; every address it resolves to must be allowed, so no answer of a rebinding
 * name can slip through. Throws a message for the model naming the option that would allow it.
 */
export async function vettedAddress(url: URL, policy: NetworkPolicy): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await (policy.resolve ?? resolveAll)(host)).map((entry) => entry.address);
  const first = addresses[0];
  if (first === undefined) throw new Error(`${host} resolves to no address`);
  for (const address of addresses) {
    const refusal = addressRefusal(address, host, policy);
    if (refusal) {
      const named = address === host ? address : `${host} (${address})`;
      throw new NetworkRefusedError(
        `refused to connect to ${named}, ${refusal}, for ${url.href}: the web tools do not reach loopback, private, link-local, unique-local or multicast addresses; ` +
          `allow it with allowPrivateNetwork: true or allowHosts: ["${host}"] in the web plugin's options`,
      );
    }
  }
  return first;
}

/** A refusal by the policy: its message is the whole answer for the model. */
export class NetworkRefusedError extends Error {}

async function resolveAll(host: string): Promise<{ address: string; family: number }[]> {
  // The resolver loads with the first request, not with the plugin (cold start of every command).
  const { lookup } = await import("node:dns/promises");
  return lookup(host, { all: true, verbatim: true });
}

function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

function inRange(address: string, network: string, prefix: number, family: "ipv4" | "ipv6"): boolean {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list.check(address, family);
}

function allows(allowed: string, host: string, address: string, family: "ipv4" | "ipv6"): boolean {
  const [network, prefix] = allowed.split("/");
  if (prefix === undefined) return allowed.toLowerCase() === host.toLowerCase() || allowed === address;
  const allowedFamily = isIP(network ?? "") === 6 ? "ipv6" : "ipv4";
  return allowedFamily === family && inRange(address, network ?? "", Number(prefix), family);
}
