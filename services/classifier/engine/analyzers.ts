// Arguments that are code in a small language of their own: SQL given to
// psql/mysql/sqlite3, redis-cli commands, sed, awk and Miller programs, git's
// code-bearing config keys. Everything else in an argument list is data.
// sed, git and the HTTP clients' analyses live with their tool families in tools/.
import { posix } from "node:path";
import { remoteDbHost, remoteDbHostIn } from "./db-hosts.js";
import type { HostId } from "../../shared/config.js";
import type { TierNumber } from "../../shared/tier.js";
import type { StdinSource, Word } from "./types.js";
import { allValues, splitArgs } from "./argv.js";
import { gitAnalysis } from "./tools/git.js";
import { curlAnalysis, httpieAnalysis, wgetAnalysis } from "./tools/http.js";
import { contactsCarry, inputSent, inputUpload, networkAnalysis } from "./tools/network.js";
import { ffmpegAnalysis, ffmpegPlugins, getopt, magickAnalysis, tmuxAnalysis } from "./tools/outputs.js";
import { sedAnalysis } from "./tools/sed.js";
import { systemctlEnvironment } from "./tools/systemctl.js";
import { awsEnvironment } from "./tools/aws-environment.js";
import { TEX_ENGINES, texAnalysis } from "./tools/tex.js";
import { SECRET_NAME } from "./secret-names.js";
import { guardFile, persistenceFile } from "./paths.js";

export interface Analysis {
  tier: TierNumber;
  rule: string;
  reason: string;
  /** "decide": the analysis sets the tier (SQL, redis); "floor": it only raises the rule's tier. */
  kind: "decide" | "floor";
  /** Code text the vetoes should scan. */
  code?: string;
}

const SQL_READ =
  /^(select|show|explain(?!\s+analy[sz]e)|describe|desc|values|table|\\[a-z?+]+|with\b(?![\s\S]*\b(insert|update|delete|merge)\b)|set\s+search_path|begin|commit|rollback|end)\b/i;
const SQL_CATASTROPHIC =
  /\b(drop\s+(database|schema|table|role|user|owned|extension|tablespace)|truncate|alter\s+system|delete\s+from\s+[\w."]+\s*(;|$)|update\s+[\w."]+\s+set\s+(?![\s\S]*\bwhere\b)|pg_terminate_backend|pg_drop_replication_slot|dropdb|rename\s+to)\b/i;

/**
 * Functions a SELECT may call that change the database or its server (review 24): large objects written to or
 * removed from the server's files (lo_export, lo_unlink …), sequences moved, WAL switched, a standby promoted,
 * configuration reloaded, backends cancelled, statements run on another database (dblink_exec, dblink), adminpack's
 * file writes, replication slots and origins made or dropped, notifications sent.
 */
const SQL_WRITING_CALL =
  /\b(?:lo_(?:export|unlink|create|creat|from_bytea|put|truncate\w*|import)|setval|nextval|pg_switch_wal|pg_switch_xlog|pg_create_restore_point|pg_promote|pg_reload_conf|pg_cancel_backend|pg_rotate_logfile\w*|pg_logical_emit_message|pg_file_(?:write|unlink|rename|sync)|pg_import_system_collations|pg_create_\w*replication_slot|pg_replication_origin_\w+|pg_copy_\w*replication_slot|pg_replication_slot_advance|pg_wal_replay_(?:pause|resume)|pg_stat_reset\w*|pg_backup_(?:start|stop)|pg_start_backup|pg_stop_backup|dblink(?:_exec|_connect\w*|_send_query)?|pg_notify)\s*\(/i;
/**
 * What a SELECT may read that is a secret (review 24): files of the server (pg_read_file, pg_ls_dir, mysql's
 * load_file), large objects, password hashes and user mappings' options (an FDW's remote password), MySQL's
 * account table.
 */
const SQL_SECRET_READ =
  /\b(?:pg_read_(?:binary_)?file|pg_ls_\w+|pg_stat_file|lo_get|load_file)\s*\(|\b(?:pg_shadow|pg_authid|pg_user_mappings?|user_mapping_options|pg_file_settings)\b|\bmysql\s*\.\s*user\b|\bauthentication_string\b/i;

function stripSql(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/\$\$[\s\S]*?\$\$/g, "''");
}

/** Judge SQL text: reads → 0, catastrophic DDL/DML → 4 on primary (3 on server-01), other writes → 3. */
export function judgeSql(sql: string, host: HostId, tool: string): Analysis {
  const stmts = stripSql(sql)
    .split(/;|\\g\b/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (stmts.length === 0) return { tier: 0, rule: `sql:${tool}`, reason: "no statements", kind: "decide" };
  if (SQL_CATASTROPHIC.test(stripSql(sql) + ";")) {
    return {
      tier: host === "primary" ? 4 : 3,
      rule: `sql:${tool}-destructive`,
      reason: "SQL that drops, truncates or rewrites whole tables",
      kind: "decide",
    };
  }
  const bare = stripSql(sql);
  const writes = SQL_WRITING_CALL.exec(bare);
  if (writes)
    return {
      tier: 3,
      rule: `sql:${tool}-write`,
      reason: `SQL that changes a live database or its server: ${writes[0].replace(/\s*\($/, "()")}`,
      kind: "decide",
    };
  const secret = SQL_SECRET_READ.exec(bare);
  if (secret)
    return {
      tier: 2,
      rule: `sql:${tool}-secret`,
      reason: `SQL that reads the server's files or stored credentials: ${secret[0].replace(/\s*\($/, "()")}`,
      kind: "decide",
    };
  if (stmts.every((s) => SQL_READ.test(s) && !/\binto\b/i.test(s)))
    return { tier: 0, rule: `sql:${tool}-read`, reason: "read-only SQL", kind: "decide" };
  return { tier: 3, rule: `sql:${tool}-write`, reason: "SQL that changes a live database", kind: "decide" };
}

const PSQL_VALUES = new Set([
  "-c",
  "--command",
  "-f",
  "--file",
  "-d",
  "--dbname",
  "-h",
  "--host",
  "-p",
  "--port",
  "-U",
  "--username",
  "-o",
  "--output",
  "-v",
  "--set",
  "--variable",
  "-F",
  "-R",
  "-P",
  "-T",
  "-L",
]);
const MYSQL_VALUES = new Set(["-e", "--execute", "-u", "--user", "-h", "--host", "-P", "--port", "-D", "--database", "-S", "--socket"]);

/**
 * Client commands inside SQL text that run shell code or reach files: psql's
 * `\!`, `\copy … program`, `\o |cmd`, `\g |cmd`, `\w |cmd`, backquoted
 * variables, `COPY … PROGRAM`; mysql's `\!`/`system`. Returns the shell code
 * found and whether anything beyond plain SQL is there (`\gexec`, `\i`, `\o file` …).
 */
function clientEscapes(text: string): { code: string[]; other: boolean } {
  const code: string[] = [];
  for (const m of text.matchAll(/\\!([^\n]*)/g)) code.push(m[1] ?? "");
  for (const m of text.matchAll(/(?:^|;|\n)\s*system\s+([^\n;]*)/gi)) code.push(m[1] ?? "");
  for (const m of text.matchAll(/\bprogram\s+'((?:[^']|'')*)'/gi)) code.push((m[1] ?? "").replace(/''/g, "'"));
  for (const m of text.matchAll(/\\(?:o|out|g|gx|w|write|copy)\b[^\n|]*\|\s*([^\n]*)/g)) code.push(m[1] ?? "");
  for (const m of text.matchAll(/(?:^|;|\n)\s*(?:pager|\\P)[ \t]+([^\n;]*)/gi)) code.push(m[1] ?? "");
  // psql meta-command arguments in backquotes are shell commands (`\set x `cmd``).
  for (const m of text.matchAll(/\\[a-zA-Z]+[^\n`]*`([^`]*)`/g)) code.push(m[1] ?? "");
  const other =
    /\\(gexec|setenv|i|ir|include|include_relative|o|out|w|write|copy|lo_import|lo_export|cd|getenv|source|e|edit|ef|ev)\b|\\\.|\\gx?[ \t]+[^\s|]/.test(
      text,
    ) || /(?:^|;|\n)\s*(source|tee|pager|\\T|\\P)\b/i.test(text);
  return { code, other };
}

/** A client script's meta-commands: one that runs a shell is tier 3 with its code, one that reaches other SQL or files 3. */
function escapeVerdict(tool: string, text: string): Analysis | null {
  const esc = clientEscapes(text);
  if (esc.code.length)
    return {
      tier: 3,
      rule: `sql:${tool}-shell`,
      reason: "client command that runs a shell command",
      kind: "decide",
      code: esc.code.join("\n"),
    };
  if (esc.other)
    return { tier: 3, rule: `sql:${tool}-meta`, reason: "client command that runs other SQL or reaches files", kind: "decide" };
  return null;
}

function sqlClient(tool: string, args: readonly Word[], stdin: StdinSource | null, host: HostId): Analysis | null {
  const isPsql = tool === "psql";
  const a = splitArgs(args, isPsql ? PSQL_VALUES : MYSQL_VALUES);
  // Every -c/-e is run, in order: all of them are judged.
  const inline = isPsql ? allValues(args, "c", ["--command"], "aAbeEnqsStxXwW1") : allValues(args, "e", ["--execute"], "BbCcEHNnqrstvVX");
  const files = isPsql ? allValues(args, "f", ["--file"], "aAbeEnqsStxXwW1") : [];
  const fromFile: Analysis | null = files.length
    ? { tier: 3, rule: `sql:${tool}-session`, reason: "SQL script from a file against a live database", kind: "decide" }
    : null;
  if (inline.length) {
    if (inline.some((w) => w.dynamic))
      return {
        tier: 3,
        rule: `sql:${tool}`,
        reason: "SQL computed at run time",
        kind: "decide",
        code: inline.map((w) => w.text).join("\n"),
      };
    const text = inline.map((w) => w.text).join(";\n");
    const escaped = escapeVerdict(tool, text);
    if (escaped) return escaped;
    const j = judgeSql(text, host, tool);
    return fromFile && fromFile.tier > j.tier ? fromFile : j;
  }
  if (fromFile) return fromFile;
  if (isPsql && (a.flags.includes("-l") || a.flags.includes("--list") || a.flags.includes("--version") || a.flags.includes("-V"))) {
    return { tier: 0, rule: "sql:psql-list", reason: "lists databases or prints the version", kind: "decide" };
  }
  if (!isPsql && (a.flags.includes("--version") || a.flags.includes("-V")))
    return { tier: 0, rule: `sql:${tool}-version`, reason: "prints the version", kind: "decide" };
  if (stdin && stdin.text !== null && !stdin.dynamic) {
    const escaped = escapeVerdict(tool, stdin.text);
    if (escaped) return escaped;
    return judgeSql(stdin.text, host, tool);
  }
  return { tier: 3, rule: `sql:${tool}-session`, reason: "SQL session or script against a live database", kind: "decide" };
}

// sqlite3 dot commands that only show things; every other one reaches files, loads code or runs commands.
const SQLITE_SHOW =
  /^\.(tables|table|schema|fullschema|indexes|indices|dump|help|databases|dbinfo|mode|headers?|show|stats|timer|width|nullvalue|separator|print|echo|eqp|changes|lint|version|quit|exit|explain|bail|bail|limits?|expert|dbconfig|parameter|scanstats|selftest|sha3sum|vfsinfo|vfslist|vfsname)\b/i;
// SQL functions of the sqlite3 shell that read or write files, load code or open an editor.
const SQLITE_FILE_FUNCS = /\b(writefile|readfile|load_extension|edit|fts3_tokenizer|lsdir|zipfile|sqlar_\w+)\s*\(/i;

function sqlite(args: readonly Word[], stdin: StdinSource | null, host: HostId): Analysis | null {
  const a = splitArgs(
    args,
    new Set(["-cmd", "-separator", "-init", "-newline", "-nullvalue", "-vfs", "-maxsize", "-mmap", "-lookaside", "-pagecache", "-heap"]),
  );
  if (a.values.has("-init")) return { tier: 3, rule: "sql:sqlite3-init", reason: "sqlite3 runs a start-up script", kind: "decide" };
  const cmds = args.filter((_w, i) => i > 0 && /^--?cmd$/.test((args[i - 1] as Word).text));
  const texts: Word[] = [...cmds, ...a.positional.slice(1)];
  if (a.positional.length <= 1 && stdin && stdin.text !== null)
    texts.push({ text: stdin.text, dynamic: stdin.dynamic, glob: false, confusable: false });
  if (texts.length === 0 || texts.some((w) => w.dynamic))
    return {
      tier: 2,
      rule: "sql:sqlite3-session",
      reason: "sqlite session or computed SQL",
      kind: "decide",
      code: texts.map((w) => w.text).join("\n"),
    };
  const shell: string[] = [];
  let reaches = false;
  let sql = "";
  for (const w of texts) {
    for (const line of w.text.split("\n")) {
      const l = line.trim();
      if (!l.startsWith(".")) {
        sql += `${line}\n`;
        continue;
      }
      const cmd = /^\.(shell|system)\s+(.*)$/s.exec(l);
      const pipe = /^\.(output|once|excel|import|log|read)\s+(?:-\S+\s+)*['"]?\|\s*(.*?)['"]?$/s.exec(l);
      if (cmd) shell.push(cmd[2] ?? "");
      else if (pipe) shell.push(pipe[2] ?? "");
      else if (!SQLITE_SHOW.test(l)) reaches = true;
    }
  }
  if (shell.length)
    return {
      tier: 3,
      rule: "sql:sqlite3-shell",
      reason: "sqlite3 dot command that runs a shell command",
      kind: "decide",
      code: shell.join("\n"),
    };
  if (reaches || SQLITE_FILE_FUNCS.test(sql))
    return {
      tier: 3,
      rule: "sql:sqlite3-files",
      reason: "sqlite3 command that reads or writes files, loads code or opens other databases",
      kind: "decide",
    };
  const j = judgeSql(sql, host, "sqlite3");
  return j.tier === 0 ? j : { ...j, tier: 2, reason: "SQL that changes a database file" };
}

const REDIS_READ =
  /^(get|mget|keys|scan|info|ping|ttl|pttl|type|exists|hget|hgetall|hkeys|hlen|llen|lrange|smembers|scard|zrange|zcard|strlen|dbsize|time|client\s+list|memory\s+usage|slowlog\s+get|--version|-v|config\s+get|monitor|--scan|--bigkeys|lastsave|role)\b/i;
const REDIS_BAD =
  /^(flushall|flushdb|shutdown|config\s+set|debug|slaveof|replicaof|cluster\s+reset|script\s+flush|acl\s+(setuser|deluser)|module\s+load)\b/i;

function redis(args: readonly Word[], host: HostId): Analysis {
  const a = splitArgs(args, new Set(["-h", "-p", "-a", "-n", "-u", "--user", "--pass", "-s"]));
  const cmd = a.positional.map((w) => w.text).join(" ") || a.flags.filter((f) => /^--(scan|bigkeys|version)$/.test(f)).join(" ");
  if (cmd === "") return { tier: 3, rule: "redis:session", reason: "interactive redis session", kind: "decide" };
  if (REDIS_BAD.test(cmd))
    return { tier: host === "primary" ? 4 : 3, rule: "redis:destructive", reason: "flushes, reconfigures or stops redis", kind: "decide" };
  if (REDIS_READ.test(cmd)) return { tier: 0, rule: "redis:read", reason: "read-only redis command", kind: "decide" };
  return { tier: 3, rule: "redis:write", reason: "changes live redis data", kind: "decide" };
}

// system(), pipes to and from commands (`cmd | getline`, `print | "cmd"`, gawk's
// coprocess `|&`), file output, files it opens itself (`getline VAR < F`, a
// name put into ARGV), gawk's @load/@include of other code, and its
// indirect calls (`f="system"; @f("id")`: `@` and a name, blanks or a
// backslash-newline between, a namespace allowed), which call any function
// by a name known only at run time.
const AWK_EXEC =
  /system\s*\(|\|&|\|\s*getline|\|\s*["$]|print[f]?[^;{}|]*\|(?!\|)|print[f]?[^;{}]*>\s*["$(\w]|print[f]?[^;{}]*>>|getline(?:\s+[\w$[\]]+)?\s*<|\bARGV\b(?!\s*\[\s*0\s*\])|\bARGC\s*(?:=(?!=)|\+\+|\+=|-=|--)|(?:\+\+|--)\s*ARGC\b|fflush|close\s*\(|@\s*(load|include)\b|@(?:\s|\\\n)*[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)?\s*\(/;
const AWK_VALUES = new Set([
  "-F",
  "-v",
  "-f",
  "-l",
  "-i",
  "-E",
  "--field-separator",
  "--assign",
  "--file",
  "--load",
  "--include",
  "--exec",
]);

function awk(args: readonly Word[]): Analysis | null {
  const a = splitArgs(args, AWK_VALUES);
  if (a.values.has("-l") || a.values.has("--load"))
    return { tier: 2, rule: "analysis:awk-load", reason: "awk loads a shared library extension", kind: "floor" };
  if (["-f", "--file", "-i", "--include", "-E", "--exec"].some((o) => a.values.has(o)))
    return { tier: 2, rule: "analysis:awk-file", reason: "awk program from a file", kind: "floor" };
  // gawk -e/--source gives program text too; then the operands are all input files.
  const sources = allValues(args, "e", ["--source"], "bcCdDgLMnNOPrsStV");
  const progs = [...sources, ...(sources.length === 0 && a.positional[0] ? [a.positional[0]] : [])];
  // A glob's first match is the program: a file's name (`awk B*` with a file `BEGIN{system("…")}`, round 30).
  const bad = progs.find((p) => p.dynamic || p.glob || AWK_EXEC.test(p.text));
  if (bad)
    return {
      tier: 2,
      rule: "analysis:awk-exec",
      reason: "awk program that runs commands, writes files or opens files it names itself",
      kind: "floor",
      code: bad.text,
    };
  return awkEnv(progs);
}

/**
 * Where a program text reads the environment in a way that may print it all
 * or a secret: each use of `pattern` must be followed by a literal, harmless
 * name (`ENVIRON["HOME"]`, `env.USER`); anything else (a loop over it, a
 * computed key, the whole object, a secret's name) is returned.
 */
function envDump(text: string, pattern: RegExp, named: RegExp): string | null {
  for (const m of text.matchAll(pattern)) {
    const rest = text.slice((m.index ?? 0) + m[0].length);
    const name = named
      .exec(rest)
      ?.slice(1)
      .find((g) => g !== undefined);
    if (name === undefined || SECRET_NAME.test(name)) return m[0] + rest.slice(0, 40);
  }
  return null;
}

function envFloor(tool: string, code: string): Analysis {
  return {
    tier: 2,
    rule: "analysis:env-dump",
    reason: `${tool} prints the environment (or a secret in it), as printenv does: ${code}`,
    kind: "floor",
  };
}

/** awk's ENVIRON array: `for (k in ENVIRON)` dumps every variable, as printenv does. */
function awkEnv(progs: readonly Word[]): Analysis | null {
  for (const p of progs) {
    const hit = envDump(p.text, /\bENVIRON\b/g, /^\s*\[\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\]/);
    if (hit) return envFloor("awk", hit);
  }
  return null;
}

const JQ_TWO_VALUES = new Set(["--arg", "--argjson", "--slurpfile", "--rawfile"]);
const JQ_ONE_VALUE = new Set(["--indent", "-L", "--library-path"]);

/** jq's `env` builtin and `$ENV`: the whole environment as an object (`jq -n env`) or one variable (`env.X`). */
function jq(args: readonly Word[]): Analysis | null {
  // jq reads its options anywhere, bundled too: `jq -nf q.jq`, `jq -n q.jq -f` take the program from the file (round 28).
  const end = args.findIndex((w) => w.text === "--");
  if (
    (end < 0 ? args : args.slice(0, end)).some(
      (w) => (/^-[a-zA-Z]*[fL]/.test(w.text) && !w.text.startsWith("--")) || /^--(from-file|library-path)\b/.test(w.text),
    )
  )
    return {
      tier: 2,
      rule: "analysis:jq-file",
      reason: "jq program or modules from a file, which may print the environment",
      kind: "floor",
    };
  let prog: Word | undefined;
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    // A program (or modules) from a file is not seen here: it may print $ENV as `jq -n env` does
    // (`echo '$ENV' > q.jq && jq -n -f q.jq` was tier 1, review 26).
    if (t === "-f" || t === "--from-file" || t.startsWith("--from-file=") || t === "-L" || t.startsWith("-L"))
      return {
        tier: 2,
        rule: "analysis:jq-file",
        reason: "jq program or modules from a file, which may print the environment",
        kind: "floor",
      };
    if (JQ_TWO_VALUES.has(t)) i += 2;
    else if (JQ_ONE_VALUE.has(t)) i += 1;
    else if (t === "--args" || t === "--jsonargs" || (t.startsWith("-") && t.length > 1 && t !== "--")) continue;
    else if (t === "--") {
      prog = args[i + 1];
      break;
    } else {
      prog = args[i];
      break;
    }
  }
  if (!prog) return null;
  // A glob's first match is the program: a file's name (`jq -n ?nv` with a file `env` prints the environment, round 30).
  if (prog.glob) return { tier: 2, rule: "analysis:jq-file", reason: `jq's program ${prog.text} is a glob: a file's name`, kind: "floor" };
  if (/(?:^|[;|\s])(?:import|include)\s+"/.test(prog.text))
    return { tier: 2, rule: "analysis:jq-file", reason: "jq program that loads modules, which may print the environment", kind: "floor" };
  const hit = envDump(
    prog.text,
    /\$(?:\s|#[^\n]*\n?)*ENV\b|(?<![\w.$"])env\b(?!\s*:)/g,
    /^\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\.?\[\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\])/,
  );
  return hit ? envFloor("jq", hit) : null;
}

// yq's options that take a value (mikefarah's and python yq's), and the one that names the expression.
const YQ_VALUES = new Set([
  "-o",
  "-I",
  "-p",
  "--output-format",
  "--input-format",
  "--indent",
  "--front-matter",
  "--xml-attribute-prefix",
  "--xml-content-name",
  "--lua-prefix",
  "--csv-separator",
  "--arg",
  "--argjson",
  "--indentless",
]);

/**
 * yq's environment operators (mikefarah's `env(NAME)`, `strenv(NAME)`, bare
 * `env`, `envsubst`; python yq's jq `env`/`$ENV`): judged as jq's are. An
 * expression from a file (--from-file) is not known here.
 */
function yq(args: readonly Word[]): Analysis | null {
  // python yq passes jq's `--arg NAME VALUE` on: two values, not one (round 28: the value was taken for the expression).
  const own = args.filter((_, i) => !JQ_TWO_VALUES.has(args[i - 1]?.text ?? "") && !JQ_TWO_VALUES.has(args[i - 2]?.text ?? ""));
  if (own.some((w) => w.text === "-f" || w.text.startsWith("--from-file")))
    return { tier: 2, rule: "analysis:jq-file", reason: "yq expression from a file, which may print the environment", kind: "floor" };
  const p = getopt(
    own.filter((w) => !JQ_TWO_VALUES.has(w.text)),
    "oIp",
    YQ_VALUES,
  );
  if (p.opts.some(([o]) => o === "--from-file")) return null;
  let operands = p.operands;
  if (/^(eval|e|eval-all|ea)$/.test(operands[0]?.text ?? "")) operands = operands.slice(1);
  const exprs = [...p.opts.filter(([o, v]) => o === "--expression" && v !== null).map(([, v]) => v as Word), ...operands.slice(0, 1)];
  for (const e of exprs) {
    // A glob's first match is the expression: a file's name (`yq -n ?nv`, round 30).
    if (e.glob) return { tier: 2, rule: "analysis:jq-file", reason: `yq's expression ${e.text} is a glob: a file's name`, kind: "floor" };
    // load, load_str, load_base64, load_xml, load_props read the file their argument names (`load_str("key")`).
    const load = /\bload(?:_str|_base64|_xml|_props|_yaml|_json)?\s*\(/.exec(e.text);
    if (load)
      return {
        tier: 2,
        rule: "analysis:yq-load",
        reason: `yq reads a file its expression names: ${e.text.slice(load.index, load.index + 60)}`,
        kind: "floor",
      };
    // envsubst fills every `${NAME}` in the document's strings from the environment.
    const subst = /\benvsubst\b/.exec(e.text);
    if (subst) return envFloor("yq", e.text.slice(subst.index, subst.index + 40));
    const hit = envDump(
      e.text,
      /\$(?:\s|#[^\n]*\n?)*ENV\b|(?<![\w.$"])(?:str)?env\b(?!\s*:)/g,
      /^\s*(?:\(\s*"?([A-Za-z_][A-Za-z0-9_]*)"?\s*\)|\.\s*([A-Za-z_][A-Za-z0-9_]*)|\.?\[\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\])/,
    );
    if (hit) return envFloor("yq", hit);
  }
  return null;
}

// docker/podman inspect with a --format that picks the container's Config.Env (its secrets, as config.v2.json
// holds them) or the whole object. A plain `docker inspect NAME` prints the whole object, Config.Env with it: round 28
// moved it from the safe set (allow.jsonl) to 2, as printing secrets to the agent is what earlier rounds refuse.
function containerInspect(args: readonly Word[]): Analysis | null {
  const i = args[0]?.text === "container" ? 1 : 0;
  if (args[i]?.text !== "inspect") return null;
  const rest = args.slice(i + 1);
  let format: Word | undefined;
  for (let k = 0; k < rest.length; k++) {
    const t = (rest[k] as Word).text;
    if (t === "-f" || t === "--format") format = rest[k + 1];
    else if (/^--format=|^-f./.test(t)) format = { ...(rest[k] as Word), text: t.replace(/^--format=|^-f=?/, "") };
  }
  const refs = format ? templateRefs(format.text) : [];
  const dumps = !format || format.dynamic || refs.some((r) => /env|\$/i.test(r) || /(^|[\s(])\.(Config)?\s*($|[\s)|])/.test(r));
  if (!dumps) return null;
  return {
    tier: 2,
    rule: "analysis:container-inspect",
    reason: "prints the container's configuration with its environment (secrets passed to it)",
    kind: "floor",
  };
}

// make's short options that take a value: the rest of the bundle (or, for C f I o W E, the next word) is it.
const MAKE_VALUE_LETTERS = "CfIoWEjlO";

/**
 * `make -p` / `--print-data-base` prints make's database: every variable
 * with its value — the environment's (as printenv does) and those a
 * makefile defines or includes (`include .env`). Read as getopt reads the
 * words: `-np` and `-rRp` hold it, `-j4p` does not (4p is -j's value).
 */
function makeDatabase(args: readonly Word[]): Analysis | null {
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === "--") break;
    if (t === "--print-data-base" || (!t.startsWith("--") && /^-[a-zA-Z]/.test(t) && bundleHolds(t.slice(1), "p"))) {
      return {
        tier: 2,
        rule: "analysis:make-database",
        reason: "make -p prints every variable with its value: the environment and what the makefile includes (a .env), as printenv does",
        kind: "floor",
      };
    }
    if (/^-[CfIoWE]$/.test(t)) i++;
  }
  return null;
}

/** Whether a bundle of short make options (the letters after `-`) holds `letter` before a letter that takes a value. */
function bundleHolds(letters: string, letter: string): boolean {
  for (const c of letters) {
    if (c === letter) return true;
    if (MAKE_VALUE_LETTERS.includes(c)) return false;
  }
  return false;
}

/** dc: `!` runs the rest of the line as a shell command; a program file's text is not known here. */
function dc(args: readonly Word[]): Analysis | null {
  const code = allValues(args, "e", ["--expression"]);
  const files = [...allValues(args, "f", ["--file"]), ...splitArgs(args, new Set(["-e", "--expression", "-f", "--file"])).positional];
  const shell = code.filter((w) => w.dynamic || w.text.includes("!"));
  if (shell.length)
    return {
      tier: 2,
      rule: "analysis:dc-shell",
      reason: "dc's ! runs a shell command",
      kind: "floor",
      code: shell.map((w) => w.text.slice(w.text.indexOf("!") + 1)).join("\n"),
    };
  if (files.length)
    return { tier: 2, rule: "analysis:dc-file", reason: "dc program from a file (its ! runs shell commands)", kind: "floor" };
  return null;
}

// Miller's DSL (put/filter) runs commands with system()/exec() and writes
// files or pipes with tee/emit/print/dump redirects; --prepipe runs a shell
// command per input file; -f/--load read DSL from files.
// Any redirect of tee/emit/print/dump (`print | c` with c = "sh -c id" runs it, round 28), and a pipe or `>` before
// a string, a variable or a parenthesised expression.
const MLR_EXEC = /\b(system|exec)\s*\(|[|>]\s*["$(]|\b(tee|emit[p1f]?|print[n]?|eprint[n]?|dump|edump)\s*(>|\|(?!\|))/;
/** Miller's ENV map: one variable, or all of them (`ENV["TOKEN"]`, `for (k, v in ENV)`). */
const MLR_ENV = /\bENV\b/;

function mlr(args: readonly Word[]): Analysis | null {
  const pre = args.findIndex((w) => /^--prepipex?(=|$)/.test(w.text));
  if (pre >= 0) {
    const w = args[pre] as Word;
    const code = w.text.includes("=") ? w.text.slice(w.text.indexOf("=") + 1) : (args[pre + 1]?.text ?? "");
    return { tier: 2, rule: "analysis:mlr-prepipe", reason: "Miller runs a shell command on each input", kind: "floor", code };
  }
  if (args.some((w) => /^--m?load(=|$)/.test(w.text)))
    return { tier: 2, rule: "analysis:mlr-file", reason: "Miller DSL from a file", kind: "floor" };
  // Verbs that write files or pipe to a command (`tee -p CMD`, `split`): anywhere in the verb chain.
  const verb = args.find((w) => /^(tee|split)$/.test(w.text));
  if (verb)
    return { tier: 2, rule: "analysis:mlr-verb", reason: `Miller's ${verb.text} verb writes files or pipes to a command`, kind: "floor" };
  const inline: Word[] = [];
  for (let v = 0; v < args.length; v++) {
    if (!/^(put|filter)$/.test((args[v] as Word).text)) continue;
    let i = v + 1;
    let expr = false;
    while (i < args.length && (args[i] as Word).text.startsWith("-")) {
      const o = (args[i] as Word).text;
      if (o === "-f") return { tier: 2, rule: "analysis:mlr-file", reason: "Miller DSL from a file", kind: "floor" };
      if (o === "-e" && args[i + 1]) {
        inline.push(args[i + 1] as Word);
        expr = true;
      }
      i += o === "-e" || o === "-s" ? 2 : 1;
    }
    if (!expr && args[i]) inline.push(args[i] as Word);
  }
  const env = inline.find((w) => MLR_ENV.test(w.text));
  if (env) return envFloor("mlr", env.text.slice(0, 60));
  if (inline.some((w) => w.dynamic || MLR_EXEC.test(w.text))) {
    return {
      tier: 2,
      rule: "analysis:mlr-exec",
      reason: "Miller DSL that runs commands or writes files",
      kind: "floor",
      code: inline.map((w) => w.text).join("\n"),
    };
  }
  return null;
}

/**
 * xmllint loading a document's DTDs, schemas or included files (`--valid`, `--dtdvalid`, `--schema`, `--relaxng`,
 * `--xinclude`, `--loaddtd`, `--noent`): a DTD's parameter entities read local files into a URL it fetches (round 28:
 * a loopback server received a token this way), unless `--nonet` keeps it off the network; `--noent` prints them.
 */
function xmllintLoads(args: readonly Word[]): Analysis | null {
  const loads = args.find(
    (w) => /^--(valid|dtdvalid|schema|relaxng|xinclude|loaddtd|dtdattr|noent|catalogs|path|sax)\b/.test(w.text) || w.dynamic,
  );
  if (!loads) return null;
  if (loads.text.startsWith("--noent") || !args.some((w) => w.text === "--nonet"))
    return {
      tier: 2,
      rule: "analysis:xml-external",
      reason: `xmllint ${loads.text}: loads the document's external DTDs, schemas or entities, which may read local files into a URL they fetch`,
      kind: "floor",
    };
  return null;
}

/**
 * An analysis of arguments that are code, or null when the program takes
 * none; with what a client's arguments send to the places they name
 * (network.ts contactsCarry), the worse standing.
 */
/**
 * patch writes the files its diff names, not its arguments: a diff piped in
 * from a command (`curl … | patch -p1`) names files not known here, and a
 * git diff may create `.git/hooks/pre-commit` with mode 755 or rewrite
 * `.git/config`, which the next git command runs. A diff whose text is
 * known (a heredoc, printf) is read for such names.
 */
function patchInput(args: readonly Word[], stdin: StdinSource | null): Analysis | null {
  // `-i -` and `-i /dev/stdin` read standard input too.
  const input = args.findIndex((w) => /^(-i|--input)(=|$)|^-i./.test(w.text));
  const named = input < 0 ? null : args[input]?.text.replace(/^(--input=|-i)/, "") || args[input + 1]?.text;
  if (stdin === null || (named !== null && named !== "-" && named !== "/dev/stdin")) return null;
  if (stdin.text === null || stdin.dynamic)
    return {
      tier: 2,
      rule: "analysis:patch-input",
      reason: "patch applies a diff only known when it runs: the names in it decide what it writes",
      kind: "floor",
    };
  return diffNames(stdin.text);
}

/** `git apply` / `git am` reading standard input: the names in a diff piped in decide what they write, as patch's do. */
function gitApplyInput(args: readonly Word[], stdin: StdinSource | null): Analysis | null {
  const sub = args[0]?.text;
  if ((sub !== "apply" && sub !== "am") || stdin === null) return null;
  const files = args.slice(1).filter((w) => !w.text.startsWith("-"));
  if (files.some((w) => w.text !== "-")) return null;
  if (stdin.text === null || stdin.dynamic)
    return {
      tier: 2,
      rule: "analysis:patch-input",
      reason: `git ${sub} applies a diff only known when it runs: the names in it decide what it writes`,
      kind: "floor",
    };
  return diffNames(stdin.text);
}

/** Every name a diff's text gives, unquoted, as written (`b/x.sh`); /dev/null stays (a diff that creates or deletes). */
export function diffPaths(text: string): string[] {
  // GNU patch also takes the name from an `Index:` line, and a context diff's `***` line (round 23: `Index: .git/config`
  // alone had it add core.fsmonitor there).
  const names = [
    ...text.matchAll(/^(?:---|\+\+\+|\*\*\*|Index:) ([^\t\n]+)|^diff --git (\S+) (\S+)|^(?:rename|copy) (?:from|to) (.+)$/gm),
  ].flatMap((m) => m.slice(1).filter((x): x is string => x !== undefined));
  // GNU patch reads C-quoted names ("b/\056git/…").
  return names.map((n) =>
    n
      .trim()
      .replace(/^"(.*)"$/, (_m, q: string) => q.replace(/\\([0-7]{3})/g, (_e, o: string) => String.fromCharCode(Number.parseInt(o, 8)))),
  );
}

/**
 * The worst name a diff's text writes (`+++ b/.git/hooks/pre-commit`,
 * `diff --git a/.claude/settings.json …`, `rename to ../../x`): a
 * repository's own files, a place outside it, or a file whose content runs
 * later or switches the broker off (.envrc, .vscode/tasks.json,
 * .claude/settings.json …), as a direct write there would be judged. Null
 * when it names none.
 */
export function diffNames(text: string): Analysis | null {
  const bad = diffPaths(text).find(
    (n) =>
      n !== "/dev/null" && (n.startsWith("/") || /(^|\/)(\.git|\.\.)(\/|$)/.test(n) || persistenceFile(`/w/${n}`) || guardFile(`/w/${n}`)),
  );
  return bad === undefined
    ? null
    : {
        tier: 2,
        rule: "analysis:patch-input",
        reason: `the diff names ${bad}: a repository's own files, a place outside it, or a file whose content runs later`,
        kind: "floor",
      };
}

export function analyze(name: string, args: readonly Word[], stdin: StdinSource | null, host: HostId): Analysis | null {
  const own = analyzeCode(name, args, stdin, host);
  const sent = contactsCarry(name, args);
  if (sent === null || (own !== null && own.tier >= sent.tier)) return own;
  return own === null ? sent : { ...sent, kind: own.kind };
}

/** A client's own verdict, raised to 2 when it connects to another host with the user's stored password (db-hosts.ts). */
function connectsElsewhere(
  tool: "psql" | "mysql" | "redis",
  args: readonly Word[],
  own: Analysis | null,
  stdin: StdinSource | null = null,
): Analysis | null {
  if (own !== null && own.tier >= 2) return own;
  const fed = tool !== "redis" && stdin?.text != null ? remoteDbHostIn(tool, stdin.text) : null;
  const far = fed ?? remoteDbHost(tool, args);
  if (far === null) return own;
  return {
    tier: 2,
    rule: `${tool === "redis" ? "redis" : "sql"}:remote-host`,
    reason: `connects to ${far}, another host (or one not known here), with the password the client finds (its password file, environment): a server there may ask for it in clear text`,
    kind: "decide",
  };
}

function analyzeCode(name: string, args: readonly Word[], stdin: StdinSource | null, host: HostId): Analysis | null {
  switch (name) {
    case "psql":
    case "mysql":
    case "mariadb": {
      const tool = name === "psql" ? "psql" : "mysql";
      return connectsElsewhere(tool, args, sqlClient(tool, args, stdin, host), stdin);
    }
    // The admin clients connect as mysql does (round 24: `mysqladmin ping -h evil` was 0).
    case "mysqladmin":
    case "mysqlshow":
    case "mariadb-admin":
    case "mariadb-show":
      return connectsElsewhere("mysql", args, null);
    case "sqlite3":
      return sqlite(args, stdin, host);
    case "redis-cli":
    case "valkey-cli":
      return connectsElsewhere("redis", args, redis(args, host));
    case "sed":
    case "gsed":
      return sedAnalysis(args);
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      return awk(args);
    case "git":
      return gitAnalysis(args) ?? gitApplyInput(args, stdin);
    case "patch":
      return patchInput(args, stdin);
    case "mlr":
      return mlr(args);
    case "xmllint":
      return xmllintLoads(args);
    case "dc":
      return dc(args);
    case "curl":
      return curlAnalysis(args);
    case "wget":
      return wgetAnalysis(args, stdin);
    case "jq":
    case "gojq":
    case "jaq":
    case "xq":
    case "tomlq":
      return jq(args);
    case "exiftool":
      // `-if EXPR` and the API's Filter options are Perl that exiftool evaluates (round 27).
      return args.some(
        (w, i) =>
          w.dynamic ||
          w.text === "-if" ||
          /^-if\d*$/.test(w.text) ||
          (w.text === "-api" && /filter/i.test(args[i + 1]?.text ?? "")) ||
          /^-api=?.*filter/i.test(w.text),
      )
        ? { tier: 2, rule: "analysis:exiftool-perl", reason: "exiftool evaluates Perl given in -if or an API Filter option", kind: "floor" }
        : null;
    case "R":
      // `R CMD INSTALL` installs into the user's library (~/R …) or the one named: outside the workspace (round 27).
      return args[0]?.text === "CMD" && /^(INSTALL|REMOVE)$/.test(args[1]?.text ?? "")
        ? {
            tier: 2,
            rule: "analysis:r-install",
            reason: "R CMD INSTALL writes a package into an R library outside the workspace, and runs its configure scripts",
            kind: "floor",
          }
        : null;
    case "vale":
      // `vale sync` downloads and unpacks the packages its configuration names (round 25).
      return args.some((w) => w.text === "sync" || w.dynamic)
        ? {
            tier: 2,
            rule: "analysis:vale-sync",
            reason: "vale sync downloads and unpacks packages where its configuration says",
            kind: "floor",
          }
        : null;
    case "docker":
    case "podman":
      return containerInspect(args);
    case "aws":
      return awsEnvironment(args);
    case "systemctl":
      return systemctlEnvironment(args);
    case "ffmpeg":
      return ffmpegAnalysis(name, args) ?? ffmpegPlugins(args);
    case "http":
    case "https":
    case "xh":
    case "xhs": {
      // httpie and xh send a piped input as the request body (and make it a POST), unless told to ignore it (round 23).
      if (stdin === null || args.some((w) => w.text === "-I" || w.text === "--ignore-stdin")) return httpieAnalysis(args);
      const piped = inputSent(stdin);
      return piped !== null
        ? inputUpload(name, piped)
        : { tier: 3, rule: "analysis:http-send", reason: `${name} sends its input as a request body (a POST)`, kind: "floor" };
    }
    case "ffprobe":
    case "ffplay":
      return ffmpegAnalysis(name, args);
    case "tmux":
      return tmuxAnalysis(args);
    case "convert":
    case "magick":
    case "mogrify":
    case "composite":
    case "montage":
    case "identify":
      return magickAnalysis(args);
    case "yq":
      return yq(args);
    case "make":
    case "gmake":
    case "bmake":
      return makeDatabase(args);
    case "shopt":
      return globOptions(args) ?? keywordOption("shopt", args);
    case "set":
      return keywordOption("set", args);
    case "actionlint":
      return actionlintCheckers(args);
    case "pandoc":
    case "virtualenv":
    case "venv":
    case "jupyter":
    case "sphinx-build":
    case "uv":
      return programByPath(name, args);
    default:
      return (TEX_ENGINES.has(name) ? texAnalysis(name, args) : null) ?? networkAnalysis(name, args, stdin);
  }
}

/**
 * `shopt -s nocaseglob|dotglob|globstar|extglob…`: later words expand as the classifier's own expansion does not
 * (round 25: `shopt -s nocaseglob; cat .EN[V]` printed .env, `shopt -s dotglob; rm -rf vendor/*` deleted hidden work).
 */
const GLOB_OPTIONS = /^(nocaseglob|dotglob|globstar|extglob|globasciiranges|cdable_vars)$/;
function globOptions(args: readonly Word[]): Analysis | null {
  if (!args.some((w) => /^-[a-z]*s[a-z]*$/.test(w.text))) return null;
  const set = args.find((w) => w.dynamic || GLOB_OPTIONS.test(w.text));
  return set
    ? {
        tier: 2,
        rule: "analysis:shell-glob-options",
        reason: `shopt -s ${set.text} changes how later words expand, which is not judged here`,
        kind: "floor",
      }
    : null;
}

/**
 * `set -k` (`set -o keyword`, `shopt -so keyword`): from then on every `NAME=VALUE` word, anywhere in a command's
 * arguments, is put in that command's environment (round 30: `set -k; git diff GIT_EXTERNAL_DIFF=./x` ran ./x at
 * tier 0, the word taken for a pathspec). An option computed at run time may be it.
 */
function keywordOption(name: "set" | "shopt", args: readonly Word[]): Analysis | null {
  const floor = (why: string): Analysis => ({ tier: 2, rule: "analysis:shell-keyword", reason: `${name} ${why}`, kind: "floor" });
  if (name === "shopt") {
    const flags = args.filter((w) => /^-[a-z]+$/.test(w.text)).map((w) => w.text);
    if (flags.some((f) => f.includes("s")) && flags.some((f) => f.includes("o")) && args.some((w) => w.dynamic || w.text === "keyword"))
      return floor("-so keyword: later NAME=VALUE arguments become variables of the command's environment");
    return null;
  }
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.dynamic) return floor(`${w.text}: an option computed at run time may be -k, which makes NAME=VALUE arguments variables`);
    if (!/^[-+]/.test(w.text) || w.text === "--" || w.text === "-") return null;
    if (/^-[a-zA-Z]*k/.test(w.text)) return floor(`${w.text}: later NAME=VALUE arguments become variables of the command's environment`);
    const value = /^-[a-zA-Z]*o$/.test(w.text) ? args[i + 1] : undefined;
    if (value && (value.dynamic || value.text === "keyword"))
      return floor(`-o ${value.text}: later NAME=VALUE arguments become variables of the command's environment`);
    if (/^[-+][a-zA-Z]*o$/.test(w.text)) i++;
  }
  return null;
}

/**
 * Options that take a name — a format, an interpreter, a template — and run code when given a path instead
 * (round 25): pandoc's Lua readers and writers (`-t /tmp/w.lua`), virtualenv's and uv's interpreter (`-p
 * /tmp/x/python3`), nbconvert's Jinja templates, sphinx's template and theme paths (`-D templates_path=/tmp/t`).
 */
const NAME_OR_PROGRAM: Record<string, RegExp> = {
  pandoc: /^(-[ftrw]|--from|--to|--read|--reader|--write|--writer)$/,
  virtualenv: /^(-p|--python)$/,
  venv: /^(-p|--python)$/,
  uv: /^(-p|--python)$/,
  jupyter: /^(--template|--template-file|--TemplateExporter\..*)$/,
  "sphinx-build": /^(-D|--define)$/,
};
function programByPath(name: string, args: readonly Word[]): Analysis | null {
  const opt = NAME_OR_PROGRAM[name] as RegExp;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    // `--opt=V`, `-oV`, or `--opt V` / `-o V`.
    const glued = /^(--[^=]+)=(.*)$/s.exec(w.text) ?? (w.text.startsWith("--") ? null : /^(-[a-zA-Z])(.+)$/s.exec(w.text));
    const key = glued && opt.test(glued[1] as string) ? (glued[1] as string) : opt.test(w.text) ? w.text : undefined;
    const value = key === undefined ? undefined : glued && key === glued[1] ? { ...w, text: glued[2] as string } : args[i + 1];
    if (key === undefined || value === undefined) continue;
    const path =
      name === "sphinx-build"
        ? /^(templates_path|html_theme_path|html_static_path|extensions|locale_dirs)=/.test(value.text)
        : value.text.includes("/") || value.text.endsWith(".lua");
    if (value.dynamic || path)
      return {
        tier: 2,
        rule: "analysis:program-by-path",
        reason: `${name} ${key} ${value.text}: a path where a name goes runs the code there`,
        kind: "floor",
      };
  }
  return null;
}

/**
 * actionlint hands each workflow step's script to `-shellcheck=` and `-pyflakes=` on standard input: another
 * program there runs the steps (round 25: `-pyflakes=python3`). Only the checkers themselves, or none, are reads.
 */
function actionlintCheckers(args: readonly Word[]): Analysis | null {
  for (const w of args) {
    const m = /^--?(shellcheck|pyflakes)=(.*)$/s.exec(w.text);
    if (m && (w.dynamic || !["", m[1]].includes(posix.basename(m[2] as string))))
      return {
        tier: 2,
        rule: "analysis:program-by-path",
        reason: `actionlint ${w.text}: the workflow's steps are handed to that program, which may run them`,
        kind: "floor",
      };
  }
  return args.some((w) => /^--?(shellcheck|pyflakes)$/.test(w.text))
    ? {
        tier: 2,
        rule: "analysis:program-by-path",
        reason: "actionlint's checker given as the next word: a program the workflow's steps are handed to",
        kind: "floor",
      }
    : null;
}

/** The `{{…}}` actions of a Go template, by a linear scan (a lazy regex is quadratic on `{{{{…`). */
function templateRefs(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf("{{", at);
    if (open < 0) return out;
    const close = text.indexOf("}}", open + 2);
    if (close < 0) return out;
    out.push(text.slice(open + 2, close));
    at = close + 2;
  }
}
