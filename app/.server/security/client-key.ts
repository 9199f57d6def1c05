import { isIPv4, isIPv6 } from "node:net";

/** The eight 16-bit groups of an IPv6 address, "::" expanded. */
function ipv6Groups(address: string): string[] | null {
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups.
  const last = (tail !== undefined ? right : left).at(-1);
  const v4 = last && isIPv4(last) ? 1 : 0;
  const missing = 8 - left.length - right.length - v4;
  if (tail === undefined && missing !== 0) return null;
  const groups = [...left, ...Array<string>(Math.max(missing, 0)).fill("0"), ...right];
  return groups.map((group) =>
    isIPv4(group) ? group : group.toLowerCase().replace(/^0+(?=.)/, ""),
  );
}

/**
 * What a per-client limit counts by: the IPv4 address, or the /64 network of an IPv6 address (one
 * subscriber usually gets a whole /64, so counting single IPv6 addresses would let a client rotate
 * through millions of them). IPv4-mapped IPv6 addresses count as the IPv4 address.
 */
export function rateLimitClientKey(ip: string): string {
  const address = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (isIPv4(address)) return address;
  if (isIPv6(address)) {
    const groups = ipv6Groups(address.split("%")[0] ?? address);
    if (groups) return `${groups.slice(0, 4).join(":")}::/64`;
  }
  return address || "unknown";
}
