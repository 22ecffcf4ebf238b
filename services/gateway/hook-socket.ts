// hook.sock: the Unix socket the Claude Code hook talks to. Mode 0660; the
// owner is the gateway's user and the group is `hook.socket_group` (the
// users whose agents run the hook), or the gateway's own group when unset.
import { chmodSync, chownSync } from "node:fs";
import type { Server } from "node:http";
import { type Config, hookSocketPath } from "../shared/config.js";
import { isRoot, lookupGroupId, lookupUser } from "../shared/privilege.js";
import { clearStaleSocket } from "../shared/skeleton.js";

export async function bindHookSocket(server: Server, config: Config): Promise<string> {
  const path = hookSocketPath(config);
  clearStaleSocket(path);
  const previous = process.umask(0o117);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  process.umask(previous);
  chmodSync(path, 0o660);
  if (isRoot()) {
    const gw = lookupUser(config.users.gateway);
    if (!gw) throw new Error(`user ${config.users.gateway} does not exist`);
    const group = config.hook.socket_group ? lookupGroupId(config.hook.socket_group) : gw.gid;
    if (group === undefined) throw new Error(`hook.socket_group ${config.hook.socket_group} does not exist`);
    chownSync(path, gw.uid, group);
  }
  return path;
}
