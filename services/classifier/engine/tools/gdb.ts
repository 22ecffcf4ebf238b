// gdb: the shell commands, scripts and other code its -ex/-x options run,
// attaching to a live process, and running the program it debugs.
import type { Word } from "../types.js";
import { literalWord } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { Runs } from "./runs.js";

const GDB_VALUES = new Set([
  "-ex",
  "-iex",
  "-eval-command",
  "--eval-command",
  "-init-eval-command",
  "--init-eval-command",
  "-x",
  "-ix",
  "-command",
  "--command",
  "-init-command",
  "--init-command",
  "-p",
  "-pid",
  "--pid",
  "-cd",
  "--cd",
  "-d",
  "--directory",
  "-s",
  "--symbols",
  "-e",
  "--exec",
  "-c",
  "--core",
  "-se",
  "-b",
  "-l",
  "-data-directory",
  "--data-directory",
  "-D",
  "-tty",
  "--tty",
]);

/** gdb commands that only inspect, step or stop the program (`print f()` and `call` are raised before this). */
const GDB_SAFE =
  /^\s*(?:bt|backtrace|where|info|i|list|l|ptype|whatis|frame|f|up|down|thread|disassemble|disas|break|b|tbreak|rbreak|hbreak|watch|rwatch|awatch|display|undisplay|delete|d|disable|enable|condition|ignore|continue|c|next|n|step|s|stepi|si|nexti|ni|finish|fin|until|u|advance|quit|q|kill|k|detach|echo|help|h|show|x|print|p|output|inspect|set\s+(?:pagination|print|confirm|width|height|listsize|disassembly-flavor|style|verbose|var\s+[\w.[\]>-]+\s*=\s*[\w.+-]+\s*$|variable\s+[\w.[\]>-]+\s*=\s*[\w.+-]+\s*$|logging\s+(?:on|off|enabled|redirect|overwrite|debugredirect)\b|breakpoint|startup-with-shell\s+off|debuginfod\s+enabled\s+off|auto-load\s+safe-path\s*$)|thread\s+apply\s+all\s+(?:bt|backtrace)|tui)\b(?![^\n]*[;|`])/;

/**
 * gdb's commands: `shell`/`!`/`pipe` run shell code; python, guile, source and
 * inferior calls run other code; -x files are scripts; -p attaches to a live
 * process; `run`/`start` run the program being debugged (judged as a script).
 */
function gdb(args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord("gdb")];
  const operands: Word[] = [];
  let runsProgram = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const eq = w.text.startsWith("-") ? w.text.indexOf("=") : -1;
    const opt = eq > 0 ? w.text.slice(0, eq) : w.text;
    if (opt === "--args") {
      operands.push(...args.slice(i + 1, i + 2));
      kept.push(...args.slice(i));
      break;
    }
    if (!GDB_VALUES.has(opt)) {
      kept.push(w);
      if (!w.text.startsWith("-")) operands.push(w);
      continue;
    }
    const v = eq > 0 ? { ...w, text: w.text.slice(eq + 1) } : args[++i];
    if (!v) {
      kept.push(w);
      break;
    }
    if (/^-(p|pid|-pid)$/.test(opt)) {
      runs.opaque.push(v.text);
      runs.raise(2, "gdb attaches to a running process");
      continue;
    }
    if (/^-(x|ix|-?command|-?init-command)$/.test(opt)) {
      runs.inner.push([literalWord("\u0000script"), v]);
      runs.raise(2, "gdb runs a command file");
      continue;
    }
    if (!/^-(ex|iex|-?eval-command|-?init-eval-command)$/.test(opt)) {
      kept.push(...(eq > 0 ? [w] : [w, v]));
      continue;
    }
    const t = v.text;
    const shell = /^\s*(?:shell\b|!)\s*(.*)$/s.exec(t)?.[1] ?? /^\s*(?:pipe\b|\|)[^|]*\|\s*(.*)$/s.exec(t)?.[1];
    if (shell !== undefined) runs.add({ ...v, text: shell }, 2, "gdb runs a shell command");
    else if (
      v.dynamic ||
      /^\s*(python|py|pi|python-interactive|guile|gu|guile-repl|gr|source|so|pipe|\||call|compile|expression|jit-reader-load|add-auto-load-safe-path|set\s+auto-load|target|attach)\b/.test(
        t,
      ) ||
      /^\s*(print|p|output|call)\b.*\(/.test(t)
    ) {
      runs.opaque.push(t);
      runs.raise(2, "gdb runs code, attaches or calls into the program");
    } else if (/^\s*(run|r|start|starti)\b/.test(t)) runsProgram = true;
    else if (/^\s*(?:file|exec-file)\s+\S/.test(t)) {
      // `-ex 'file /opt/x' -ex run`: the program gdb then runs is that file.
      operands.unshift({ ...v, text: t.replace(/^\s*(?:file|exec-file)\s+/, "").trim() });
    } else if (!GDB_SAFE.test(t)) {
      // Any other command (review 24): `eval "shell %s", …`, `with … -- shell …`, `alias s = shell`, `dump memory
      // FILE`, `set logging file FILE`, `generate-core-file FILE`, `save breakpoints FILE`, `set $x = system(…)`,
      // `make`, `edit` run code, run programs or write files: gdb commands outside a read-only list are not judged here.
      runs.opaque.push(t);
      runs.raise(2, "gdb runs a command that may run code or write a file");
    } else kept.push(...(eq > 0 ? [w] : [w, v]));
  }
  // The program gdb runs is judged like a script at its path.
  const program = operands[0];
  if (runsProgram && program) {
    runs.inner.push([literalWord("\u0000script"), program]);
    runs.raise(0, "gdb runs the program it debugs");
  }
  return runs.result("delegate:gdb", [kept]);
}

export const gdbDelegate: Delegate = (_name, args) => gdb(args);
