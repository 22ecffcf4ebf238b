// A free TCP port on 127.0.0.1 for an embedded database or a test server. It
// is free when asked, not reserved. It is drawn from below the kernel's
// ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), because a port
// the kernel handed out for listen(0) is next in line as the source port of
// some outgoing connection (a database client, say) and can be taken before
// the real listener binds it.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

function ephemeralStart(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    return low !== undefined && Number.isInteger(low) && low > 12_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(undefined));
    srv.listen(port, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : undefined));
    });
  });
}

/** A free port, never one of `avoid` (ports this stack will bind but has not yet: the gateway's, the console's). */
export async function freePort(avoid: readonly number[] = []): Promise<number> {
  const high = ephemeralStart() - 1;
  const low = Math.max(10_000, high - 12_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const pick = low + Math.floor(Math.random() * (high - low));
    if (avoid.includes(pick)) continue;
    const port = await tryListen(pick);
    if (port !== undefined) return port;
  }
  const any = await tryListen(0);
  if (any === undefined) throw new Error("no free TCP port on 127.0.0.1");
  return any;
}
