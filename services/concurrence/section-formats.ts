// The concurrence's reading of daemons' configuration whose lines mean what their block or section says: cupsd.conf
// (who may reach the print system and administer it — an administrator adds printers whose filters and backends
// cupsd runs) and NetworkManager's connection files (the helpers a VPN connection's plugin runs).
import { rootsPlace } from "./paths.js";
import { type Finding, finding } from "./types.js";

export const CUPSD_CONF = /^\/etc\/cups\/cupsd\.conf$/;
export const NM_CONNECTIONS = /^\/(etc|run)\/NetworkManager\/system-connections\/./;

/** cupsd's operations that change printers, classes and devices. */
const ADMIN_OPS =
  /^(cups-(add-modify|delete)-(printer|class)|cups-set-default|cups-get-devices|cups-(add|delete)-device|cups-move-job|cups-(accept|reject)-jobs|(pause|resume)-printer|create-printer|delete-printer|set-printer-attributes)$/i;
const THIS_HOST = /^(localhost|127(\.\d+){0,3}|\[?::1\]?)$/i;
const ADMINISTRATORS = /^(@system|root|@lpadmin|@root|@sys|@wheel|@admin)$/i;

function cupsdFindings(text: string): Finding[] {
  const out: Finding[] = [];
  const open: Array<{ kind: string; arg: string }> = [];
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const block = /^<\s*(\w+)\s*([^>]*)>$/.exec(line);
    if (block) {
      open.push({ kind: (block[1] ?? "").toLowerCase(), arg: (block[2] ?? "").trim() });
      continue;
    }
    if (/^<\/\s*\w+\s*>$/.test(line)) {
      open.pop();
      continue;
    }
    const [directive = "", ...args] = line.split(/\s+/);
    const d = directive.toLowerCase();
    const first = args[0] ?? "";
    const refuse = (why: string) => out.push(finding(4, `line ${i + 1}: ${line.slice(0, 80)}: ${why}`));
    if ((d === "listen" || d === "ssllisten") && !first.startsWith("/") && !THIS_HOST.test(first.replace(/:\d+$/, "")))
      refuse("cupsd (root) listens beyond this host");
    if (d === "port" || d === "sslport") refuse("cupsd (root) listens on every address");
    if (d === "defaultauthtype" && /^none$/i.test(first)) refuse("blocks that ask for the default ask for no password");
    const administering = open.some(
      (b) =>
        (b.kind === "location" && /^\/admin(\/|$)/i.test(b.arg)) ||
        (b.kind === "limit" && b.arg.split(/\s+/).some((op) => ADMIN_OPS.test(op))),
    );
    if (!administering) continue;
    if (d === "authtype" && /^none$/i.test(first)) refuse("administering the print system asks for no password");
    if (d === "allow" && args.some((a) => !/^from$/i.test(a) && !THIS_HOST.test(a.replace(/\/.*$/, ""))))
      refuse("lets others reach the print system's administration");
    if (
      d === "require" &&
      (/^valid-user$/i.test(first) || (/^(user|group)$/i.test(first) && args.slice(1).some((u) => !ADMINISTRATORS.test(u))))
    )
      refuse("lets users who are not administrators administer the print system");
    if (d === "satisfy" && /^any$/i.test(first)) refuse("an address alone is enough to administer the print system");
  }
  return out;
}

/** A VPN key naming a program or module its plugin runs or loads (openconnect's csd_wrapper, a script, a plugin). */
const VPN_HELPER = /(script|wrapper|plugin|program|helper|exec|command)$/i;

function connectionFindings(text: string): Finding[] {
  const out: Finding[] = [];
  let section = "";
  for (const [i, raw] of text.split("\n").entries()) {
    if (/^\s*(#|$)/.test(raw)) continue;
    const head = /^\s*\[([^\]]*)\]\s*$/.exec(raw);
    if (head) {
      section = (head[1] ?? "").trim().toLowerCase();
      continue;
    }
    const m = /^\s*([^=]+?)\s*=\s*(.*)$/.exec(raw);
    if (section !== "vpn" || !m?.[1] || !VPN_HELPER.test(m[1])) continue;
    const value = (m[2] ?? "").trim().replace(/^"(.*)"$/, "$1");
    if (value && !rootsPlace(value))
      out.push(finding(4, `line ${i + 1}: [vpn] ${m[1]}=${value.slice(0, 80)}: the VPN plugin runs it, and others may change it`));
  }
  return out;
}

/** Findings of a configuration read by blocks or sections (none for other files). */
export function sectionFindings(text: string, path: string): Finding[] {
  if (CUPSD_CONF.test(path)) return cupsdFindings(text);
  if (NM_CONNECTIONS.test(path)) return connectionFindings(text);
  return [];
}
