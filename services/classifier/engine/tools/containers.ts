// Containers and instances: docker/podman/nerdctl run|exec (and container
// run|exec, compose run|exec), docker-compose, incus/lxc exec. The command
// runs elsewhere; host mounts and privileges raise the floor, and paths under
// a bind mount are judged as the host paths they reach.
import type { TierNumber } from "../../../shared/tier.js";
import type { Word } from "../types.js";
import { firstOperand, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";

const RUN_VALUES = new Set([
  "-v",
  "--volume",
  "--mount",
  "-e",
  "--env",
  "--env-file",
  "--name",
  "-p",
  "--publish",
  "-w",
  "--workdir",
  "--network",
  "--net",
  "-u",
  "--user",
  "--entrypoint",
  "-l",
  "--label",
  "--cpus",
  "-m",
  "--memory",
  "--restart",
  "-h",
  "--hostname",
  "--add-host",
  "--cap-add",
  "--cap-drop",
  "--device",
  "--pid",
  "--ipc",
  "--uts",
  "--userns",
  "--security-opt",
  "--platform",
  "--pull",
  "--log-driver",
  "--log-opt",
  "--tmpfs",
  "--ulimit",
  "--gpus",
  "--dns",
  "--shm-size",
  "--stop-signal",
  "--health-cmd",
  "--cidfile",
  "--group-add",
  "--link",
  "--volumes-from",
  "--runtime",
  "--cgroupns",
  "-a",
  "--attach",
  "--detach-keys",
]);
const HOST_ROOT_MOUNT =
  /^(\/|\/etc|\/root|\/home|\/boot|\/usr|\/var|\/var\/lib|\/var\/lib\/docker|\/var\/run\/docker\.sock|\/run\/docker\.sock|\/dev|\/proc|\/sys)$/;

interface Mount {
  src: string;
  dst: string;
}

/** Bind mounts in any spelling: `-v SRC:DST`, `-vSRC:DST`, `--volume=…`, `--mount type=bind,src=…,dst=…` (source/target/destination too). */
function mountsOf(opts: string[]): Mount[] {
  const raw: { v: string; mount: boolean }[] = [];
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i] as string;
    const m = /^(?:--(volume|mount)(?:=(.*))?|-[a-zA-Z]*?v(.*))$/s.exec(o);
    if (!m || (o.startsWith("--") && m[1] === undefined)) continue;
    const value = m[2] ?? (m[3] || undefined) ?? opts[++i] ?? "";
    raw.push({ v: value, mount: m[1] === "mount" });
  }
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);
  return raw.map(({ v, mount }) => {
    if (mount || /(^|,)(type|source|src|target|destination|dst)=/.test(v)) {
      const field = (re: RegExp) => re.exec(v)?.[1] ?? "";
      return { src: trim(field(/(?:^|,)(?:source|src)=([^,]*)/)), dst: trim(field(/(?:^|,)(?:target|destination|dst)=([^,]*)/)) };
    }
    const [src = "", dst = ""] = v.split(":");
    return { src: trim(src), dst: trim(dst) };
  });
}

function container(kind: "run" | "exec", tool: string, args: Word[]): Unwrap {
  const at = firstOperand(args, RUN_VALUES);
  const opts = args.slice(0, at).map((w) => w.text);
  const optText = opts.join(" ");
  const mounts = mountsOf(opts);
  const hostRoot = mounts.some((m) => HOST_ROOT_MOUNT.test(m.src));
  const privileged = /--privileged|--pid[ =]host|--cap-add[ =](ALL|SYS_ADMIN)|--userns[ =]host|--device[ =]\/dev\/(sd|nvme|vd)/.test(
    optText,
  );
  const rest = args.slice(at + 1);
  let floor: TierNumber = kind === "run" ? 2 : 0;
  let why = kind === "run" ? "starts a container" : "runs a command in a running container";
  if (hostRoot || privileged) {
    floor = 3;
    why = "container with host root, system mounts or privileges";
  }
  if (rest.length === 0) return unwrap(`delegate:${tool}-${kind}`, Math.max(floor, kind === "exec" ? 2 : floor) as TierNumber, why);
  return unwrap(`delegate:${tool}-${kind}`, floor, why, { inner: [rest.map((w) => hostView(w, mounts))], remote: true });
}

/** Rewrite a container path under a bind mount to the host path it reaches (`/host/etc` → `/etc`). */
function hostView(word: Word, mounts: Mount[]): Word {
  for (const { src, dst } of mounts) {
    if (!src.startsWith("/") || !dst.startsWith("/")) continue;
    const d = dst === "/" ? "" : dst;
    if (word.text === dst || word.text.startsWith(d + "/"))
      return { ...word, text: (src === "/" ? "" : src) + word.text.slice(d.length) || "/" };
  }
  return word;
}

const COMPOSE_VALUES = new Set([
  "-f",
  "--file",
  "-p",
  "--project-name",
  "--env-file",
  "--profile",
  "--project-directory",
  "-e",
  "--env",
  "-u",
  "--user",
  "-w",
  "--workdir",
  "--index",
  "--name",
  "--entrypoint",
  "-v",
  "--volume",
  "-l",
  "--label",
]);

function compose(sub: string, args: Word[]): Unwrap | null {
  if (sub !== "exec" && sub !== "run") return null;
  const at = firstOperand(args, COMPOSE_VALUES);
  const rest = args.slice(at + 1);
  const floor: TierNumber = sub === "run" ? 2 : 0;
  if (rest.length === 0) return unwrap(`delegate:compose-${sub}`, 2, "interactive session in a service container");
  return unwrap(`delegate:compose-${sub}`, floor, "runs a command in a service container", { inner: [rest], remote: true });
}

function dashExec(tool: string, args: Word[]): Unwrap {
  const dash = args.findIndex((w) => w.text === "--");
  if (dash < 0) return unwrap(`delegate:${tool}-exec`, 2, "interactive exec into an instance");
  return unwrap(`delegate:${tool}-exec`, 0, "runs a command in an instance", { inner: [args.slice(dash + 1)], remote: true });
}

/** docker/podman/nerdctl: `run`/`exec`, `container run|exec`, `compose … run|exec`. */
export const dockerDelegate: Delegate = (name, args) => {
  const sub = args[0]?.text ?? "";
  if (sub === "run" || sub === "exec") return container(sub, name, args.slice(1));
  if (sub === "container" && (args[1]?.text === "run" || args[1]?.text === "exec"))
    return container(args[1].text as "run" | "exec", name, args.slice(2));
  if (sub === "compose") {
    const at = firstOperand(args, COMPOSE_VALUES, 1);
    return compose(args[at]?.text ?? "", args.slice(at + 1));
  }
  return null;
};

export const dockerComposeDelegate: Delegate = (_name, args) => compose(args[0]?.text ?? "", args.slice(1));

/** incus/lxc exec INSTANCE -- CMD. */
export const instanceDelegate: Delegate = (name, args) => ((args[0]?.text ?? "") === "exec" ? dashExec(name, args.slice(1)) : null);
