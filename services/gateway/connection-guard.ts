// Connection limits for the gateway's listeners, so that no local user can
// take the gateway's file descriptors and lock everyone out (issue 18: 21,000
// slow-body connections from one unprivileged user reset /health, /exec and
// the hook socket for everyone).
//
// Every open connection is counted, in total and per peer (its address; the
// hook's Unix socket has one peer, "unix"). A connection is *admitted* while
// it carries a request that was accepted (authenticated, or /health);
// otherwise — connected but headers not complete, or idle between requests —
// it is *pending*. A new connection over the peer's cap or the total takes
// the place of the oldest pending one (of that peer, or of anyone): a slow
// client loses its slot to a fresh one, never a request in progress. When
// nothing can be evicted, the last `reserve` slots accept connections that
// may only ask for /health; past the total, the connection is closed at once.
//
// What it trusts: the kernel's peer address. Loopback peers all look alike
// unless they bind another 127.x address; eviction (oldest pending first) is
// what keeps a valid caller on 127.0.0.1 served while another local user
// floods from it. How it fails: it only ever closes connections it counts.
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { PeerLog } from "./peer-log.js";

export interface ConnectionLimits {
  /** Open connections at most, the reserve included. */
  total: number;
  /** Open connections from one peer at most. */
  perPeer: number;
  /** Of `total`, slots that serve only /health. */
  reserve: number;
}

export interface ConnectionStats {
  open: number;
  admitted: number;
  peers: number;
  limits: ConnectionLimits;
  /** Since start: closed at once (no slot), and pending ones evicted for a newer connection. */
  refused_total: number;
  evicted_total: number;
}

interface Tracked {
  peer: string;
  admitted: boolean;
  reserveOnly: boolean;
}

export class ConnectionGuard {
  /** Insertion order = age: the first pending entry is the oldest. */
  private readonly open = new Map<Socket, Tracked>();
  private readonly perPeer = new Map<string, Set<Socket>>();
  private refused = 0;
  private evicted = 0;

  constructor(
    readonly limits: ConnectionLimits,
    private readonly peerLog: PeerLog,
  ) {}

  static peerOf(socket: Socket): string {
    return socket.remoteAddress ?? "unix";
  }

  attach(server: Server): this {
    server.on("connection", (socket: Socket) => this.accept(socket));
    return this;
  }

  private accept(socket: Socket): void {
    const peer = ConnectionGuard.peerOf(socket);
    const mine = this.perPeer.get(peer);
    if (mine && mine.size >= this.limits.perPeer && !this.evictOldest(mine)) {
      this.refuse(socket, peer, "per-peer connection limit");
      return;
    }
    let reserveOnly = false;
    if (this.open.size >= this.limits.total - this.limits.reserve && !this.evictOldest(this.open.keys())) {
      if (this.open.size >= this.limits.total) {
        this.refuse(socket, peer, "connection limit");
        return;
      }
      reserveOnly = true;
    }
    this.open.set(socket, { peer, admitted: false, reserveOnly });
    let set = this.perPeer.get(peer);
    if (!set) this.perPeer.set(peer, (set = new Set()));
    set.add(socket);
    socket.once("close", () => {
      this.open.delete(socket);
      set.delete(socket);
      if (set.size === 0 && this.perPeer.get(peer) === set) this.perPeer.delete(peer);
    });
  }

  /** Closes the oldest pending connection among `sockets`; false when every one is admitted. */
  private evictOldest(sockets: Iterable<Socket>): boolean {
    for (const s of sockets) {
      const t = this.open.get(s);
      if (!t || t.admitted) continue;
      this.evicted++;
      this.peerLog.note(t.peer, "connection evicted for a newer one (limit reached)");
      this.forget(s);
      s.destroy();
      return true;
    }
    return false;
  }

  /** Stops counting a socket now (its "close" event comes later). */
  private forget(socket: Socket): void {
    const t = this.open.get(socket);
    if (!t) return;
    this.open.delete(socket);
    this.perPeer.get(t.peer)?.delete(socket);
  }

  private refuse(socket: Socket, peer: string, why: string): void {
    this.refused++;
    this.peerLog.note(peer, `connection refused: ${why}`);
    socket.destroy();
  }

  /** The connection was accepted into the reserve: it may only ask for /health. */
  reserveOnly(socket: Socket): boolean {
    return this.open.get(socket)?.reserveOnly ?? false;
  }

  /** A request on this connection was accepted: it is not evicted until the answer is sent. */
  admit(socket: Socket): void {
    const t = this.open.get(socket);
    if (t) t.admitted = true;
  }

  /** The answer is sent: the connection is pending again (idle keep-alive). */
  release(socket: Socket): void {
    const t = this.open.get(socket);
    if (t) t.admitted = false;
  }

  stats(): ConnectionStats {
    let admitted = 0;
    for (const t of this.open.values()) if (t.admitted) admitted++;
    return {
      open: this.open.size,
      admitted,
      peers: this.perPeer.size,
      limits: this.limits,
      refused_total: this.refused,
      evicted_total: this.evicted,
    };
  }
}
