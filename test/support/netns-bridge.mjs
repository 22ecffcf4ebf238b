// Runs one program inside a fresh network namespace that has nothing but a
// loopback interface, with chosen loopback ports forwarded to Unix sockets
// outside (filesystem sockets cross network namespaces; TCP does not).
//
// Why: the real Claude Code client is a large program with its own ideas of
// whom to talk to. Inside this namespace it can reach only 127.0.0.1 — and
// there only the ports forwarded here — so a test can never send traffic to
// any other address, whatever the client tries.
//
// Usage (as root, started through `unshare --net`):
//   node netns-bridge.mjs PORT=/path/to.sock [PORT=/path ...] -- PROGRAM ARGS...
// It brings lo up, listens on 127.0.0.1:PORT for each pair, starts PROGRAM
// with the same stdio and environment, and exits with its status (128+n for a
// signal). Each accepted connection is piped both ways to its Unix socket.
import { spawn, spawnSync } from "node:child_process";
import { connect, createServer } from "node:net";

const args = process.argv.slice(2);
const split = args.indexOf("--");
if (split < 1 || split === args.length - 1) {
  process.stderr.write("usage: netns-bridge.mjs PORT=SOCKET... -- PROGRAM ARGS...\n");
  process.exit(64);
}
const pairs = args.slice(0, split).map((p) => {
  const eq = p.indexOf("=");
  return { port: Number(p.slice(0, eq)), socket: p.slice(eq + 1) };
});
const [program, ...programArgs] = args.slice(split + 1);

// Loopback up with perl-base (essential on Debian, unlike iproute2's ip):
// SIOCSIFFLAGS with IFF_UP|IFF_LOOPBACK|IFF_RUNNING on an AF_INET socket.
const LO_UP =
  "socket(my $s, 2, 2, 0) or die qq(socket: $!\\n); my $ifr = pack(q(a16 s x22), q(lo), 1 | 8 | 0x40); ioctl($s, 0x8914, $ifr) or die qq(SIOCSIFFLAGS: $!\\n)";
const up = spawnSync("perl", ["-e", LO_UP], { stdio: ["ignore", "ignore", "pipe"] });
if (up.status !== 0) {
  process.stderr.write(`netns-bridge: cannot bring lo up: ${up.stderr?.toString() ?? up.error?.message}\n`);
  process.exit(70);
}

await Promise.all(
  pairs.map(
    ({ port, socket }) =>
      new Promise((resolve, reject) => {
        const server = createServer((inbound) => {
          const outbound = connect(socket);
          inbound.pipe(outbound);
          outbound.pipe(inbound);
          const done = () => {
            inbound.destroy();
            outbound.destroy();
          };
          inbound.on("error", done);
          outbound.on("error", done);
          inbound.on("close", done);
          outbound.on("close", done);
        });
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => resolve(undefined));
      }),
  ),
);

const child = spawn(program, programArgs, { stdio: "inherit" });
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(sig, () => child.kill(sig));
child.once("error", (err) => {
  process.stderr.write(`netns-bridge: cannot start ${program}: ${err.message}\n`);
  process.exit(127);
});
child.once("exit", (code, signal) => {
  process.exit(code ?? 128 + (signal ? ({ SIGKILL: 9, SIGTERM: 15, SIGINT: 2 }[signal] ?? 1) : 1));
});
