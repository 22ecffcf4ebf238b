// Daemons' configuration read by its blocks and sections, where a line's meaning depends on the block it is in:
// cupsd.conf (who may reach the print system and administer it — an administrator adds printers whose filters and
// backends cupsd runs) and NetworkManager's connection files (the helpers a VPN connection's plugin runs).
import { rootOwnedPlace } from "./runs-later.js";
import { comment, lines, type Mark, mark } from "./runs-later-content.js";

export const CUPSD = /^\/etc\/cups\/cupsd\.conf$/;
export const NM_CONNECTION = /^\/(etc|run)\/NetworkManager\/system-connections\/./;

/** cupsd's operations that change printers, classes and devices: an administrator's. */
const ADMIN_OPERATION =
  /^(cups-(add-modify|delete)-(printer|class)|cups-set-default|cups-get-devices|cups-(add|delete)-device|cups-move-job|cups-(accept|reject)-jobs|(pause|resume)-printer|create-printer|delete-printer|set-printer-attributes)$/i;
/** This host alone: loopback addresses and names. */
const LOOPBACK = /^(localhost|127(\.\d+){0,3}|\[?::1\]?)$/i;
/** Who may administer: the system group (cups-files.conf's SystemGroup) or root. */
const ADMINS = /^(@system|root|@lpadmin|@root|@sys|@wheel|@admin)$/i;

function cupsd(text: string): Mark[] {
  const out: Mark[] = [];
  const blocks: Array<{ kind: string; arg: string }> = [];
  for (const raw of lines(text)) {
    if (comment(raw)) continue;
    const line = raw.trim();
    const open = /^<\s*(\w+)\s*([^>]*)>$/.exec(line);
    if (open) {
      blocks.push({ kind: (open[1] as string).toLowerCase(), arg: (open[2] ?? "").trim() });
      continue;
    }
    if (/^<\/\s*\w+\s*>$/.test(line)) {
      blocks.pop();
      continue;
    }
    const [key = "", ...words] = line.split(/\s+/);
    const k = key.toLowerCase();
    const say = (why: string) => out.push(mark(4, `cupsd.conf: ${line.slice(0, 80)}: ${why}`));
    if ((k === "listen" || k === "ssllisten") && !(words[0] ?? "").startsWith("/")) {
      const host = (words[0] ?? "").replace(/:\d+$/, "");
      if (!LOOPBACK.test(host)) say("cupsd, which runs as root, listens beyond this host");
    }
    if (k === "port" || k === "sslport") say("cupsd, which runs as root, listens on every address");
    if (k === "defaultauthtype" && /^none$/i.test(words[0] ?? "")) say("no authentication where a block asks for the default");
    const admin = blocks.some(
      (b) =>
        (b.kind === "location" && /^\/admin(\/|$)/i.test(b.arg)) ||
        (b.kind === "limit" && b.arg.split(/\s+/).some((op) => ADMIN_OPERATION.test(op))),
    );
    if (!admin) continue;
    const who = words.filter((w) => !/^from$/i.test(w));
    if (k === "authtype" && /^none$/i.test(words[0] ?? "")) say("administering the print system asks for no password");
    if (k === "allow" && who.some((w) => !LOOPBACK.test(w.replace(/\/.*$/, ""))))
      say("lets others reach the print system's administration");
    if (
      k === "require" &&
      (/^valid-user$/i.test(words[0] ?? "") || (/^(user|group)$/i.test(words[0] ?? "") && words.slice(1).some((u) => !ADMINS.test(u))))
    )
      say("lets users who are not administrators administer the print system");
    if (k === "satisfy" && /^any$/i.test(words[0] ?? "")) say("an address alone lets one administer the print system");
  }
  return out;
}

/** A VPN setting naming a program or module its plugin runs or loads (openconnect's csd_wrapper, a script, a plugin). */
const VPN_PROGRAM = /(script|wrapper|plugin|program|helper|exec|command)$/i;

function nmConnection(text: string): Mark[] {
  const out: Mark[] = [];
  let section = "";
  for (const raw of lines(text)) {
    if (comment(raw)) continue;
    const head = /^\s*\[([^\]]*)\]\s*$/.exec(raw);
    if (head) {
      section = (head[1] as string).trim().toLowerCase();
      continue;
    }
    const m = /^\s*([^=]+?)\s*=\s*(.*)$/.exec(raw);
    if (section !== "vpn" || !m || !VPN_PROGRAM.test(m[1] as string)) continue;
    const value = (m[2] as string).trim().replace(/^"(.*)"$/, "$1");
    if (value && (!value.startsWith("/") || !rootOwnedPlace(value)))
      out.push(mark(4, `[vpn] ${m[1]}=${value.slice(0, 80)}: a program the VPN plugin runs, not in a place only root can change`));
  }
  return out;
}

/** The findings of a block- or section-read configuration at `path` (none for other files). */
export function sectionedConfig(text: string, path: string): Mark[] {
  if (CUPSD.test(path)) return cupsd(text);
  if (NM_CONNECTION.test(path)) return nmConnection(text);
  return [];
}
