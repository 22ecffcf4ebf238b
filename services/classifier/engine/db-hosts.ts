// Where a database client connects, when the line names it: psql's -h,
// --host, a conninfo's host=/hostaddr= or a URI's hosts (as -d or the
// dbname operand); mysql's and mariadb's -h/--host; redis-cli's -h and
// -u URI. A server there may ask for the password in clear text (libpq
// answers AuthenticationCleartextPassword with PGPASSWORD or a matching
// ~/.pgpass line; redis-cli sends AUTH $REDISCLI_AUTH), so a "read" sent to
// another host carries the user's stored credential to it (round 22: a
// stand-in server on loopback logged both). Loopback, a Unix socket
// directory and no host at all stay local.
import type { Word } from "./types.js";

// A name without a dot (`db`, a compose service, /etc/hosts) is this network's, not one a page can point anywhere.
// Docker's and podman's names for the host itself, and *.localhost, are this machine too.
const LOCAL =
  /^(?:|localhost|[\w.-]+\.localhost|127(?:\.\d{1,3}){3}|::1|\[::1\]|\/.*|@.*|[a-z_][a-z0-9_-]*|host\.docker\.internal|gateway\.docker\.internal|host\.containers\.internal)$/i;

/** A host the client connects to that is not this one (or not known until run time), else null. */
export function remoteDbHost(tool: "psql" | "mysql" | "redis", args: readonly Word[]): string | null {
  for (const w of hostWords(tool, args)) {
    if (w.dynamic) return w.text;
    for (const h of w.text.split(",")) if (!LOCAL.test(h.trim().replace(/:\d*$/, ""))) return h.trim();
  }
  return null;
}

/** A host statements the client reads on standard input reconnect to (`echo '\\r db HOST' | mysql`, psql's `\\c`; stop 49). */
export function remoteDbHostIn(tool: "psql" | "mysql", text: string): string | null {
  const stdin: Word = { text, dynamic: false, glob: false, confusable: false };
  for (const w of tool === "mysql" ? mysqlReconnects(stdin) : reconnects(stdin))
    for (const h of w.text.split(",")) if (!LOCAL.test(h.trim().replace(/:\d*$/, ""))) return h.trim();
  return null;
}

/** The words naming hosts: option values, conninfo or URI hosts, and psql's `\c DB USER HOST` in its commands. */
function hostWords(tool: string, args: readonly Word[]): Word[] {
  const out: Word[] = [];
  // Short options that take a value (the rest of a bundle is theirs): `-Xh HOST` is -X then -h, `-dh` is -d's value.
  const valued = VALUED[tool] ?? "";
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    const long = /^--host(?:=(.*))?$/s.exec(t);
    // `--dbname=URI`, `-dURI`, `-u URI`: a conninfo or URI given as an option's value.
    const db = /^(?:--dbname=|--uri=|--url=)(.*)$/s.exec(t);
    if (long && long[1] === undefined) {
      const v = args[++i];
      if (v) out.push(v);
    } else if (long) out.push({ ...w, text: long[1] ?? "" });
    else if (db) out.push(...connectionHosts({ ...w, text: db[1] ?? "" }, true));
    else if (tool === "psql" && /\\c(?:onnect)?\s/.test(t)) out.push(...reconnects(w));
    else if (tool === "mysql" && /^--execute(?:=|$)/.test(t)) {
      const v = t.includes("=") ? { ...w, text: t.slice(t.indexOf("=") + 1) } : args[++i];
      if (v) out.push(...mysqlReconnects(v));
    } else if (/^-[A-Za-z]/.test(t) && !t.startsWith("--")) {
      for (let k = 1; k < t.length; k++) {
        const c = t[k] as string;
        if (c === "h") {
          const rest = t.slice(k + 1);
          const v = rest !== "" ? { ...w, text: rest } : args[++i];
          if (v) out.push(v);
          break;
        }
        if (valued.includes(c)) {
          const rest = t.slice(k + 1);
          const v = rest !== "" ? { ...w, text: rest } : args[++i];
          if (v && tool !== "mysql")
            out.push(...connectionHosts(v, tool !== "redis" || c === "u"), ...(tool === "psql" ? reconnects(v) : []));
          if (v && tool === "mysql" && c === "e") out.push(...mysqlReconnects(v));
          break;
        }
      }
    } else if (tool !== "mysql") out.push(...connectionHosts(w, tool === "redis" ? args[i - 1]?.text === "-u" : true));
  }
  return out;
}

/** psql's `\c DB USER HOST [PORT]` (or a conninfo or URI as its first argument) in a command text (round 24). */
function reconnects(w: Word): Word[] {
  const out: Word[] = [];
  // `\\c -reuse-previous=on DB USER HOST`: the option comes first (round 31: it took DB's place, so HOST was never read).
  for (const m of w.text.matchAll(/\\c(?:onnect)?(?:\s+-reuse-previous(?:=\S*)?)?\s+(\S+)(?:\s+(\S+))?(?:\s+(\S+))?/g)) {
    if (m[3]) out.push({ ...w, text: m[3] });
    out.push(...connectionHosts({ ...w, text: m[1] ?? "" }, true));
  }
  return out;
}

/** mysql's and mariadb's `connect DB HOST` and `\\r DB HOST` in statements given with -e (round 28: credentials sent there). */
function mysqlReconnects(w: Word): Word[] {
  // The client obeys a backslash command anywhere in a line (`select 1 \\r db host`, round 29); `connect` starts a statement.
  return [...w.text.matchAll(/\\r\s+(\S+)\s+([^\s;\\]+)|(?:^|[;\n]|\\[gG])\s*connect\s+(\S+)\s+([^\s;\\]+)/gi)].map((m) => ({
    ...w,
    text: m[2] ?? m[4] ?? "",
  }));
}

/** Each client's short options that take a value. */
const VALUED: Record<string, string> = { psql: "cdfFLoOpPRTUv", mysql: "eDuPSpO", redis: "pansuxdDc" };

/** The hosts a conninfo string (`host=h dbname=x`) or a URI (`postgresql://u@h1,h2:5432/x?host=h3`, `redis://h`) names. */
function connectionHosts(w: Word, uriHere: boolean): Word[] {
  const t = w.text;
  const uri = /^(?:postgres(?:ql)?|rediss?|unix):\/\/(?:[^@/?#]*@)?([^/?#]*)(?:[^?#]*)(?:\?([^#]*))?/i.exec(t);
  if (uri && uriHere) {
    const query = [...(uri[2] ?? "").matchAll(/(?:^|&)(?:host|hostaddr)=([^&]*)/gi)].map((m) => decodeURIComponent(m[1] ?? ""));
    return [{ ...w, text: [decodeURIComponent(uri[1] ?? ""), ...query].join(",") }];
  }
  const kv = [...t.matchAll(/(?:^|\s)(?:host|hostaddr)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|(\S*))/gi)];
  return kv.map((m) => ({ ...w, text: m[1] ?? m[2] ?? "" }));
}
