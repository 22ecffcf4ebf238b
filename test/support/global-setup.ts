// Before any test file runs (vitest globalSetup): as root, the system users
// a stack makes on its first start exist already. useradd rewrites
// /etc/passwd, group, shadow and gshadow and leaves their `-` backups; on a
// fresh machine the first stack of the run would do it while another file
// runs beside it, and a file that checks the host's /etc is untouched
// (test/sandbox/overlay.spec.ts) would see /etc change under it.
import { EMBEDDED_PG_OS_USER } from "../../cli/embedded-postgres.js";
import { ensureServiceUsers } from "../../cli/home.js";
import { loadConfig } from "../../services/shared/config.js";
import { ensureSystemUser, isRoot } from "../../services/shared/privilege.js";

export default function setup(): void {
  if (!isRoot()) return;
  // The default names (no config file there), which the test stacks use.
  ensureServiceUsers(loadConfig("/nonexistent/agent-sudo-home").users, () => undefined);
  ensureSystemUser(EMBEDDED_PG_OS_USER);
}
