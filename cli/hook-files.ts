// Writing the files `agent-sudo hook install` changes: a settings.json (or
// config.json) is copied aside first and replaced through a rename; a
// config.json change is checked to load the way the gateway loads it before
// it is written, and refused (with what to set by hand) when it would not.
import {
  closeSync,
  existsSync,
  fchmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ConfigError, loadConfig } from "../services/shared/config.js";

type Json = Record<string, unknown>;
export type HookMode = "conservative" | "routed";

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, "").replace(".", "");
}

/** Whether anything — a dangling link too — has this name. */
function taken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A new file with `data` and `mode`. The directory may be someone else's (a
 * project's .claude/, written by root): O_EXCL never opens a name left
 * there, a link included, and the mode is set on what was opened.
 */
function createFile(path: string, data: string | Buffer, mode: number): void {
  const fd = openSync(path, "wx", mode);
  try {
    writeFileSync(fd, data);
    fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

/** Copies the old file aside, then writes the new one through a rename. Returns the backup's path. */
export function writeWithBackup(path: string, content: string, existed: boolean, fallbackMode = 0o644): string | undefined {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let backup: string | undefined;
  let mode = fallbackMode;
  if (existed) {
    mode = statSync(path).mode & 0o777;
    backup = `${path}.bak-${stamp()}`;
    for (let n = 1; taken(backup); n++) backup = `${path}.bak-${stamp()}-${n}`;
    createFile(backup, readFileSync(path), mode);
  }
  const tmp = `${path}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  createFile(tmp, content, mode);
  renameSync(tmp, path);
  return backup;
}

/** Writes hook.mode into <home>/config.json after checking the whole file still loads. */
export function setHookMode(home: string, mode: HookMode): ConfigChange {
  const file = join(home, "config.json");
  return setHookConfig(
    home,
    "mode",
    mode,
    `set "hook": {"mode": "${mode}"} in ${file} (or AGENT_SUDO_HOOK_MODE=${mode} in the gateway's environment), then restart the gateway`,
  );
}

export type ConfigChange = { ok: true; file: string; changed: boolean } | { ok: false; message: string };

/** Sets hook.<key> in <home>/config.json, keeping the rest, after checking the whole file still loads. */
export function setHookConfig(home: string, key: "mode" | "tcp", value: string | boolean, byHand: string): ConfigChange {
  const file = join(home, "config.json");
  let raw: Json = {};
  const existed = existsSync(file);
  try {
    if (existed) raw = JSON.parse(readFileSync(file, "utf8")) as Json;
  } catch (err) {
    return { ok: false, message: `${file} is not readable JSON (${(err as Error).message}); fix it, then ${byHand}` };
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { ok: false, message: `${file} is not a JSON object; ${byHand}` };
  const hook = raw.hook && typeof raw.hook === "object" ? (raw.hook as Json) : {};
  if (hook[key] === value) return { ok: true, file, changed: false };
  const next = { ...raw, hook: { ...hook, [key]: value } };
  const content = `${JSON.stringify(next, null, 2)}\n`;
  const problem = validateConfigText(content);
  if (problem) return { ok: false, message: `with that change ${file} would not load (${problem}); ${byHand}` };
  try {
    writeWithBackup(file, content, existed);
  } catch (err) {
    return {
      ok: false,
      message: `cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); as a user who can, ${byHand}`,
    };
  }
  return { ok: true, file, changed: true };
}

/** Loads a config.json text the way the gateway would, without environment overrides. */
function validateConfigText(content: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), "agent-sudo-config-check-"));
  const masked = Object.keys(process.env).filter((k) => k.startsWith("AGENT_SUDO_") && k !== "AGENT_SUDO_HOME");
  const saved = masked.map((k) => [k, process.env[k]] as const);
  try {
    for (const k of masked) delete process.env[k];
    writeFileSync(join(dir, "config.json"), content);
    loadConfig(dir);
    return undefined;
  } catch (err) {
    return err instanceof ConfigError ? err.message.replace(`${join(dir, "config.json")}: `, "") : String(err);
  } finally {
    for (const [k, v] of saved) if (v !== undefined) process.env[k] = v;
    rmSync(dir, { recursive: true, force: true });
  }
}
