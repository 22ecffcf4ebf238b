// Stand-in executables for tier-3 tests — NOT the real tools. Each is a small
// sh script put first on PATH in a temp dir, scripted through files there,
// that mimics the real tool's output closely enough for our parsers:
//   timeshift  --list / --create, including its exit-0-on-failure quirk
//   systemctl  is-active UNIT (a scripted sequence of states)
//   docker     inspect --format … NAME, compose … ps -q
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface StandIns {
  dir: string;
  env: NodeJS.ProcessEnv;
  /** Writes a scripted file (relative to the stand-in dir). */
  script(rel: string, content: string): void;
}

const TIMESHIFT = `#!/bin/sh
# TEST STAND-IN for timeshift (not the real tool). Modes (file "mode"):
#   ok           creates a snapshot and says so
#   quirk        fails ("E: Not enough disk space") but exits 0, like timeshift can
#   lying        prints the success line, creates nothing, exits 0
#   fail         fails and exits 1
#   list-broken  like ok, but --list fails
S="$TIMESHIFT_STANDIN_DIR"
mode=$(cat "$S/mode" 2>/dev/null || echo ok)
touch "$S/snapshots"
case "$1" in
--list)
  if [ "$mode" = list-broken ]; then echo "E: Failed to mount backup device"; exit 1; fi
  echo "Mounted '/dev/vda1' at '/run/timeshift/backup'"
  echo "Device : /dev/vda1"
  echo "Mode   : RSYNC"
  echo "Status : OK"
  n=$(wc -l < "$S/snapshots")
  if [ "$n" -eq 0 ]; then echo "No snapshots found"; exit 0; fi
  echo "$n snapshots, 96.1 GB free"
  echo
  echo "Num     Name                 Tags  Description"
  echo "------------------------------------------------------------------------------"
  i=0
  while IFS='|' read -r name tags desc; do echo "$i    >  $name  $tags     $desc"; i=$((i+1)); done < "$S/snapshots"
  exit 0 ;;
--create)
  printf '%s\\n' "$@" > "$S/last-create-args"
  echo "Mounted '/dev/vda1' at '/run/timeshift/backup'"
  echo "Creating new snapshot...(RSYNC)"
  case "$mode" in
  ok|list-broken)
    c=$(($(cat "$S/counter" 2>/dev/null || echo 0) + 1)); echo "$c" > "$S/counter"
    name=$(printf '2026-07-08_12-00-%02d' "$c")
    echo "Saving to device: /dev/vda1, mounted at path: /run/timeshift/backup"
    echo "Syncing files with rsync..."
    echo "Created control file: /run/timeshift/backup/timeshift/snapshots/$name/info.json"
    echo "RSYNC Snapshot saved successfully (2s)"
    echo "Tagged snapshot '$name': ondemand"
    echo "$name|O|$3" >> "$S/snapshots"
    exit 0 ;;
  quirk) echo "E: Not enough disk space"; echo "E: Failed to create new snapshot"; exit 0 ;;
  lying) echo "RSYNC Snapshot saved successfully (0s)"; exit 0 ;;
  fail) echo "E: Another instance of timeshift is running"; exit 1 ;;
  esac ;;
esac
echo "E: stand-in does not know $1"; exit 2
`;

/** Prints the first line of a scripted sequence and keeps the last one once reached. */
const NEXT = `next() { f="$1"; [ -f "$f" ] || return 1; line=$(head -n 1 "$f"); if [ "$(wc -l < "$f")" -gt 1 ]; then tail -n +2 "$f" > "$f.t" && mv "$f.t" "$f"; fi; printf '%s\\n' "$line"; }`;

const SYSTEMCTL = `#!/bin/sh
# TEST STAND-IN for systemctl (not the real tool): is-active UNIT prints the next
# scripted state from units/UNIT and exits 0 only for "active".
S="$VERIFY_STANDIN_DIR"
${NEXT}
[ "$1" = is-active ] || { echo "stand-in: only is-active"; exit 2; }
state=$(next "$S/units/$2") || state=inactive
echo "$state"
[ "$state" = active ]
`;

const DOCKER = `#!/bin/sh
# TEST STAND-IN for docker (not the real tool): inspect --format … NAME prints the
# next scripted "status health" from containers/NAME; compose … ps -q prints compose-ps.
S="$VERIFY_STANDIN_DIR"
${NEXT}
if [ "$1" = inspect ]; then
  eval "name=\\\${$#}"
  out=$(next "$S/containers/$name") || { echo "Error: No such object: $name" >&2; exit 1; }
  echo "$out"; exit 0
fi
if [ "$1" = compose ]; then
  for a in "$@"; do if [ "$a" = ps ]; then cat "$S/compose-ps" 2>/dev/null; exit 0; fi; done
fi
echo "stand-in: unsupported $*" >&2; exit 2
`;

export function makeStandIns(): StandIns {
  const dir = mkdtempSync(join(tmpdir(), "agent-sudo-standins-"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  mkdirSync(join(dir, "units"));
  mkdirSync(join(dir, "containers"));
  for (const [name, text] of [
    ["timeshift", TIMESHIFT],
    ["systemctl", SYSTEMCTL],
    ["docker", DOCKER],
  ] as const) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  return {
    dir,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, TIMESHIFT_STANDIN_DIR: dir, VERIFY_STANDIN_DIR: dir },
    script: (rel, content) => writeFileSync(join(dir, rel), content),
  };
}
