// Every tool's option table, by key (`tool` or `tool sub`). See spec.ts for
// the notation and check.ts for how a command's words are read against it.
import { BUILD } from "./build.js";
import { CONTAINERS } from "./containers.js";
import { DATA } from "./data.js";
import { FILES } from "./files.js";
import { GIT } from "./git.js";
import { INFRA } from "./infra.js";
import { NETWORK } from "./network.js";
import { PACKAGES } from "./packages.js";
import { SHELL } from "./shell.js";
import { defineTools } from "./spec.js";
import { SYSTEM } from "./system.js";
import { TEXT } from "./text.js";

export const TOOLS = defineTools(SHELL, FILES, TEXT, SYSTEM, NETWORK, GIT, CONTAINERS, PACKAGES, DATA, INFRA, BUILD);
