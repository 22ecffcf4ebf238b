// Commands that run other commands from their arguments: find -exec/-ok/-delete,
// xargs, parallel, watch, ssh host 'cmd', docker/podman run|exec, docker compose
// run|exec, kubectl exec. The delegated command is judged like any other.
import type { TierNumber } from "../../shared/tier.js";
import type { Word } from "./types.js";
import { dynamicWord, firstOperand, joinWords, literalWord, unwrap } from "./unwrap.js";
import type { Unwrap } from "./unwrap.js";

function find(args: Word[]): Unwrap | null {
  const roots = args.slice(0, Math.max(0, args.findIndex((w) => /^[-!(]/.test(w.text)))).map((w) => w.text);
  const starts = roots.length ? roots : ["."];
  const inner: Word[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test((args[i] as Word).text)) continue;
    let j = i + 1;
    const cmd: Word[] = [];
    while (j < args.length && !/^[;+]$/.test((args[j] as Word).text)) cmd.push(args[j++] as Word);
    for (const root of starts) {
      inner.push(cmd.map((w) => (w.text.includes("{}") ? { ...w, text: w.text.replaceAll("{}", `${root.replace(/\/+$/, "")}/{}`), glob: true } : w)));
    }
    i = j;
  }
  return inner.length ? unwrap("delegate:find-exec", 0, "find runs a command per match", { inner }) : null;
}

const XARGS_VALUES = new Set(["-n", "-I", "-P", "-L", "-d", "-a", "-E", "-s", "-e", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--replace", "--max-lines", "--eof", "--max-chars"]);

function xargs(args: Word[]): Unwrap {
  const at = firstOperand(args, XARGS_VALUES);
  const replIdx = args.findIndex((w) => w.text === "-I" || w.text === "--replace");
  const repl = replIdx >= 0 && replIdx < at ? args[replIdx + 1]?.text : undefined;
  let cmd = args.slice(at);
  if (cmd.length === 0) cmd = [literalWord("echo")];
  const input = dynamicWord("$XARGS_INPUT");
  const inner = repl ? cmd.map((w) => (w.text.includes(repl) ? { ...w, text: w.text.replaceAll(repl, "$XARGS_INPUT"), dynamic: true } : w)) : [...cmd, input];
  return unwrap("delegate:xargs", 0, "xargs runs a command on its input", { inner: [inner] });
}

function parallel(args: Word[]): Unwrap {
  const at = firstOperand(args, new Set(["-j", "--jobs", "-S", "--sshlogin", "--joblog", "--results", "-a", "--arg-file", "--delay", "--timeout"]));
  const end = args.findIndex((w, i) => i >= at && /^:::+$/.test(w.text));
  const cmd = args.slice(at, end < 0 ? undefined : end);
  const code = joinWords(cmd).text.replace(/\{[^}\s]*\}/g, '"$PARALLEL_ARG"');
  return unwrap("delegate:parallel", cmd.length ? 0 : 2, "parallel runs a command per input", { code: cmd.length ? [code] : [] });
}

function watch(args: Word[]): Unwrap {
  const at = firstOperand(args, new Set(["-n", "--interval", "-q", "--equexit"]));
  const rest = args.slice(at);
  if (args.slice(0, at).some((w) => w.text === "-x" || w.text === "--exec")) return unwrap("delegate:watch", 0, "watch re-runs a command", { inner: [rest] });
  return unwrap("delegate:watch", 0, "watch re-runs a command", { code: [joinWords(rest).text] });
}

const SSH_VALUES = new Set(["-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-e", "-m", "-O", "-Q", "-S", "-w", "-B", "-I"]);

function ssh(args: Word[]): Unwrap {
  const at = firstOperand(args, SSH_VALUES);
  const opts = args.slice(0, at).map((w) => w.text);
  const optText = args.slice(0, at).map((w) => w.text).join(" ");
  if (/ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand/i.test(optText)) return unwrap("delegate:ssh", 2, "ssh option runs a local command", { opaque: [optText] });
  const forwards = opts.some((o) => /^-[LRDWw]/.test(o));
  const rest = args.slice(at + 1);
  if (rest.length === 0) return unwrap("delegate:ssh", 2, forwards ? "opens a tunnel" : "opens an interactive remote session");
  const floor: TierNumber = forwards ? 2 : 0;
  return unwrap("delegate:ssh", floor, "runs a command on another host", { code: [joinWords(rest).text], remote: true });
}

const RUN_VALUES = new Set([
  "-v", "--volume", "--mount", "-e", "--env", "--env-file", "--name", "-p", "--publish", "-w", "--workdir", "--network", "--net",
  "-u", "--user", "--entrypoint", "-l", "--label", "--cpus", "-m", "--memory", "--restart", "-h", "--hostname", "--add-host",
  "--cap-add", "--cap-drop", "--device", "--pid", "--ipc", "--uts", "--userns", "--security-opt", "--platform", "--pull",
  "--log-driver", "--log-opt", "--tmpfs", "--ulimit", "--gpus", "--dns", "--shm-size", "--stop-signal", "--health-cmd",
  "--cidfile", "--group-add", "--link", "--volumes-from", "--runtime", "--cgroupns", "-a", "--attach", "--detach-keys",
]);
const HOST_ROOT_MOUNT = /^(\/|\/etc|\/root|\/home|\/boot|\/usr|\/var|\/var\/lib|\/var\/lib\/docker|\/var\/run\/docker\.sock|\/run\/docker\.sock|\/dev|\/proc|\/sys)(:|$)/;

function container(kind: "run" | "exec", tool: string, args: Word[]): Unwrap {
  const at = firstOperand(args, RUN_VALUES);
  const opts = args.slice(0, at).map((w) => w.text);
  const optText = opts.join(" ");
  const mounts = opts.flatMap((o, i) => (o === "-v" || o === "--volume" || o === "--mount" ? [opts[i + 1] ?? ""] : o.startsWith("--volume=") || o.startsWith("--mount=") ? [o.replace(/^--\w+=/, "")] : []));
  const hostRoot = mounts.some((m) => HOST_ROOT_MOUNT.test(m.replace(/^.*source=/, "")));
  const privileged = /--privileged|--pid[ =]host|--cap-add[ =](ALL|SYS_ADMIN)|--userns[ =]host|--device[ =]\/dev\/(sd|nvme|vd)/.test(optText);
  const rest = args.slice(at + 1);
  let floor: TierNumber = kind === "run" ? 2 : 0;
  let why = kind === "run" ? "starts a container" : "runs a command in a running container";
  if (hostRoot || privileged) { floor = 3; why = "container with host root, system mounts or privileges"; }
  if (rest.length === 0) return unwrap(`delegate:${tool}-${kind}`, Math.max(floor, kind === "exec" ? 2 : floor) as TierNumber, why);
  return unwrap(`delegate:${tool}-${kind}`, floor, why, { inner: [rest.map((w) => hostView(w, mounts))], remote: true });
}

/** Rewrite a container path under a bind mount to the host path it reaches (`/host/etc` → `/etc`). */
function hostView(word: Word, mounts: string[]): Word {
  for (const m of mounts) {
    const [src, dst] = m.includes("source=") ? [/source=([^,]+)/.exec(m)?.[1], /(?:target|destination|dst)=([^,]+)/.exec(m)?.[1]] : m.split(":");
    if (!src || !dst || !src.startsWith("/") || !dst.startsWith("/")) continue;
    const d = dst.replace(/\/+$/, "");
    if (word.text === d || word.text.startsWith(d + "/")) return { ...word, text: (src.replace(/\/+$/, "") + word.text.slice(d.length)) || "/" };
  }
  return word;
}

function kubectlExec(args: Word[]): Unwrap {
  const dash = args.findIndex((w) => w.text === "--");
  if (dash < 0) return unwrap("delegate:kubectl-exec", 2, "interactive exec into a pod");
  return unwrap("delegate:kubectl-exec", 0, "runs a command in a pod", { inner: [args.slice(dash + 1)], remote: true });
}

const COMPOSE_VALUES = new Set(["-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory", "-e", "--env", "-u", "--user", "-w", "--workdir", "--index", "--name", "--entrypoint", "-v", "--volume", "-l", "--label"]);

function compose(sub: string, args: Word[]): Unwrap | null {
  if (sub !== "exec" && sub !== "run") return null;
  const at = firstOperand(args, COMPOSE_VALUES);
  const rest = args.slice(at + 1);
  const floor: TierNumber = sub === "run" ? 2 : 0;
  if (rest.length === 0) return unwrap(`delegate:compose-${sub}`, 2, "interactive session in a service container");
  return unwrap(`delegate:compose-${sub}`, floor, "runs a command in a service container", { inner: [rest], remote: true });
}

const NPX_VALUES = new Set(["-p", "--package", "-c", "--call", "--prefix", "-w", "--workspace"]);

/** npx/bunx/pnpm dlx: run a package's binary (downloading it when absent). */
function npx(tool: string, args: Word[]): Unwrap {
  const c = args.findIndex((w) => w.text === "-c" || w.text === "--call");
  if (c >= 0 && args[c + 1]) return unwrap(`delegate:${tool}`, 1, "runs a package binary", { code: [(args[c + 1] as Word).text] });
  const at = firstOperand(args, NPX_VALUES);
  const rest = args.slice(at);
  if (rest.length === 0) return unwrap(`delegate:${tool}`, 2, `${tool} without a command`);
  const bin = (rest[0] as Word).text.replace(/^@[^/]+\//, "").replace(/@[^@/]*$/, "");
  return unwrap(`delegate:${tool}`, 1, "runs a package binary", { inner: [[{ ...(rest[0] as Word), text: bin }, ...rest.slice(1)]] });
}

function dashExec(tool: string, args: Word[]): Unwrap {
  const dash = args.findIndex((w) => w.text === "--");
  if (dash < 0) return unwrap(`delegate:${tool}-exec`, 2, "interactive exec into an instance");
  return unwrap(`delegate:${tool}-exec`, 0, "runs a command in an instance", { inner: [args.slice(dash + 1)], remote: true });
}

/** A delegating command's unwrapping, or null when `name args` delegates nothing. */
export function delegate(name: string, args: Word[]): Unwrap | null {
  const sub = args[0]?.text ?? "";
  switch (name) {
    case "find": return find(args);
    case "xargs": return xargs(args);
    case "parallel": return parallel(args);
    case "watch": return watch(args);
    case "ssh": return ssh(args);
    case "kubectl": return sub === "exec" ? kubectlExec(args.slice(1)) : null;
    case "incus": case "lxc": return sub === "exec" ? dashExec(name, args.slice(1)) : null;
    case "npx": case "bunx": return npx(name, args);
    case "pnpm": case "yarn": return sub === "dlx" ? npx(`${name}-dlx`, args.slice(1)) : sub === "exec" ? npx(`${name}-exec`, args.slice(1)) : null;
    case "npm": return sub === "exec" || sub === "x" ? npx("npm-exec", args.slice(1)) : null;
    case "docker-compose": return compose(sub, args.slice(1));
    case "docker":
    case "podman":
    case "nerdctl": {
      if (sub === "run" || sub === "exec") return container(sub, name, args.slice(1));
      if (sub === "container" && (args[1]?.text === "run" || args[1]?.text === "exec")) return container(args[1].text as "run" | "exec", name, args.slice(2));
      if (sub === "compose") {
        const at = firstOperand(args, COMPOSE_VALUES, 1);
        return compose(args[at]?.text ?? "", args.slice(at + 1));
      }
      return null;
    }
    default: return null;
  }
}
