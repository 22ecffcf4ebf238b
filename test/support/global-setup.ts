// Before any test file runs (vitest globalSetup): as root, the system users
// a stack makes on its first start exist already. useradd rewrites
// /etc/passwd, group, shadow and gshadow and leaves their `-` backups; on a
// fresh machine the first stack of the run would do it while another file
// runs beside it, and a file that checks the host's /etc is untouched
// (test/sandbox/overlay.spec.ts) would see /etc change under it.
import { SERVICES, loadConfig } from "../../services/shared/config.js";
import { ensureSystemUser, isRoot } from "../../services/shared/privilege.js";
import { EMBEDDED_PG_OS_USER } from "../../cli/embedded-postgres.js";

export default function setup(): void {
  if (!isRoot()) return;
  // The default names (no config file there), which the test stacks use.
  const { users } = loadConfig("/nonexistent/agent-sudo-home");
  for (const service of SERVICES) if (service !== "executor") ensureSystemUser(users[service]);
  ensureSystemUser(EMBEDDED_PG_OS_USER);
}
