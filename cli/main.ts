// The `agent-sudo` command: one dispatcher, one module per subcommand.
import { ConfigError } from "../services/shared/config.js";
import { auditCommand } from "./audit.js";
import { classifyCommand, explainCommand } from "./classify.js";
import { breakerCommand } from "./breaker.js";
import { doctorCommand } from "./doctor.js";
import { execCommand } from "./exec.js";
import { hookCommand } from "./hook.js";
import { installCommand, uninstallCommand } from "./install.js";
import { migrateAllowlistCommand } from "./migrate-allowlist.js";
import { policyCommand } from "./policy.js";
import { rulesCommand } from "./rules.js";
import { shadowCommand } from "./shadow.js";
import { inventoryCommand } from "./inventory.js";
import { rollbackCommand } from "./rollback.js";
import { startCommand } from "./start.js";
import { operatorTokenCommand } from "./operator-token.js";

const USAGE = `usage: agent-sudo <command> [options]

commands:
  start            start the whole stack (the same as npm start)
  classify [--host H] [--source sudo|claude] [--cwd DIR] [--json] [--policies DIR] -- COMMAND
  classify --batch FILE|-   one JSONL verdict per JSONL input line
  explain -- COMMAND        the parse tree and each part's verdict
  exec [--timeout S] [--cwd DIR] -- 'CMD'   run CMD through POST /exec (token from ~/.config/agent-sudo/token)
  hook install|uninstall [--scope user|project] [--mode conservative|routed] [--settings PATH]
                   register the Claude Code hook in settings.json (uninstall removes only ours)
  doctor           check the hook end to end and say what to fix
  rollback UNDO_ID restore what a tier >= 1 command changed (as root)
  audit            tail | export | label | verify-journal (the audit trail)
  breaker          status [--json] | trip --reason R | rearm --reason R (rearm: root only)
  policy           sign | verify | keygen | diff OLD_DIR NEW_DIR [--last N] [--commands FILE]
  console-token NAME   make a person's operator-console admin token (printed once; not an /exec token)
  metrics-token NAME   make a scraper's token for GET /metrics (printed once)
  rules            list [--proposed|--rejected|--activated] | show ID | activate ID [--tier N] [--dry-run]
                   | reject ID --reason R | learn [--min-runs N]   (proposed rules; activating is a person's act)
  migrate-allowlist FILE   old bridge allowlist.json -> SUDO.md rules on stdout
  shadow           --old URL --new URL --token-file F FILE: replay commands through both, show differences
  inventory        print this host's command surface as JSON (read-only), for build-sandbox.sh
  install          lay out this host (--host primary|server-01, --dry-run, --root, --prefix)
  uninstall        reverse install (--purge also removes the state dir and users)
  help             this text

environment: AGENT_SUDO_HOME (state dir), AGENT_SUDO_PORT, AGENT_SUDO_BIND,
AGENT_SUDO_HOST_ID (primary|server-01), AGENT_SUDO_DEV_TOKEN, AGENT_SUDO_URL,
AGENT_SUDO_TOKEN_FILE, AGENT_SUDO_HOOK_MODE, AGENT_SUDO_HOOK_SOCKET, AGENT_SUDO_HOOK_ESCAPE`;

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  start: startCommand,
  classify: (argv) => classifyCommand(argv),
  explain: (argv) => explainCommand(argv),
  exec: execCommand,
  hook: hookCommand,
  doctor: doctorCommand,
  audit: (argv) => auditCommand(argv),
  rollback: (argv) => rollbackCommand(argv),
  breaker: (argv) => breakerCommand(argv),
  policy: (argv) => policyCommand(argv),
  rules: (argv) => rulesCommand(argv),
  "console-token": (argv) => operatorTokenCommand("console", argv),
  "metrics-token": (argv) => operatorTokenCommand("metrics", argv),
  "migrate-allowlist": (argv) => migrateAllowlistCommand(argv),
  shadow: (argv) => shadowCommand(argv),
  inventory: (argv) => inventoryCommand(argv),
  install: installCommand,
  uninstall: uninstallCommand,
};

/** A command's lines of USAGE: its own line and the more-indented ones after it. */
export function commandHelp(name: string): string {
  const lines = USAGE.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`  ${name} `) || l === `  ${name}`);
  if (at === -1) return USAGE;
  const out = [lines[at] ?? ""];
  for (const l of lines.slice(at + 1)) {
    if (!/^ {4,}/.test(l)) break;
    out.push(l);
  }
  return `usage: agent-sudo ${out.map((l) => l.trim()).join("\n       ")}`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(`${USAGE}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`agent-sudo: unknown command ${JSON.stringify(name)}\n${USAGE}\n`);
    return 2;
  }
  // --help before any "--" (after it, words belong to the command being judged or run).
  const end = rest.indexOf("--");
  const own = end === -1 ? rest : rest.slice(0, end);
  if (own.includes("--help") || own.includes("-h") || own[0] === "help") {
    process.stdout.write(`${commandHelp(name)}\n`);
    return 0;
  }
  return command(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof ConfigError || err instanceof Error ? err.message : String(err);
    process.stderr.write(`agent-sudo: ${message}\n`);
    process.exit(1);
  },
);
