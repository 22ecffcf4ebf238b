// The delegating programs, by name: each maps to the handler of its tool
// family (tools/*.ts), which says what the program runs from its arguments.
// A program not listed delegates nothing. A Map, not an object: a program
// named like an Object property (constructor, toString) is simply absent.
import type { Delegate } from "../unwrap.js";
import { tarDelegate, zipDelegate } from "./archives.js";
import { cmakeDelegate, makeDelegate } from "./build.js";
import { dockerComposeDelegate, dockerDelegate, instanceDelegate } from "./containers.js";
import { editorDelegate, manDelegate, pagerDelegate } from "./editors.js";
import { fdDelegate, findDelegate } from "./find.js";
import { gdbDelegate } from "./gdb.js";
import { gitDelegate, ghDelegate } from "./git.js";
import { helmDelegate, kubectlDelegate, kustomizeDelegate } from "./kubernetes.js";
import { bunDelegate, nodemonDelegate, npmDelegate, npxDelegate, pnpmDelegate, yarnDelegate } from "./node.js";
import { renameDelegate } from "./rename.js";
import { runnerDelegate } from "./runners.js";
import { sshDelegate } from "./ssh.js";
import { pandocDelegate, rgDelegate, sortDelegate, splitDelegate } from "./text.js";
import { parallelDelegate, watchDelegate, xargsDelegate } from "./xargs.js";

export const DELEGATES: ReadonlyMap<string, Delegate> = new Map<string, Delegate>([
  ["find", findDelegate],
  ["fd", fdDelegate],
  ["fdfind", fdDelegate],
  ["xargs", xargsDelegate],
  ["parallel", parallelDelegate],
  ["pandoc", pandocDelegate],
  ["watch", watchDelegate],
  ["ssh", sshDelegate],
  ["docker", dockerDelegate],
  ["podman", dockerDelegate],
  ["nerdctl", dockerDelegate],
  ["docker-compose", dockerComposeDelegate],
  ["incus", instanceDelegate],
  ["lxc", instanceDelegate],
  ["kubectl", kubectlDelegate],
  ["helm", helmDelegate],
  ["kustomize", kustomizeDelegate],
  ["npx", npxDelegate],
  ["bunx", npxDelegate],
  ["pnpm", pnpmDelegate],
  ["yarn", yarnDelegate],
  ["npm", npmDelegate],
  ["bun", bunDelegate],
  ["nodemon", nodemonDelegate],
  ["uv", runnerDelegate],
  ["poetry", runnerDelegate],
  ["pipenv", runnerDelegate],
  ["pdm", runnerDelegate],
  ["hatch", runnerDelegate],
  ["rye", runnerDelegate],
  ["bundle", runnerDelegate],
  ["conda", runnerDelegate],
  ["mamba", runnerDelegate],
  ["micromamba", runnerDelegate],
  ["git", gitDelegate],
  ["gh", ghDelegate],
  ["tar", tarDelegate],
  ["gtar", tarDelegate],
  ["zip", zipDelegate],
  ["make", makeDelegate],
  ["gmake", makeDelegate],
  ["bmake", makeDelegate],
  ["cmake", cmakeDelegate],
  ["gdb", gdbDelegate],
  ["vim", editorDelegate],
  ["vi", editorDelegate],
  ["nvim", editorDelegate],
  ["view", editorDelegate],
  ["gvim", editorDelegate],
  ["vimdiff", editorDelegate],
  ["ex", editorDelegate],
  ["less", pagerDelegate],
  ["more", pagerDelegate],
  ["man", manDelegate],
  ["rg", rgDelegate],
  ["sort", sortDelegate],
  ["split", splitDelegate],
  ["rename", renameDelegate],
  ["prename", renameDelegate],
  ["file-rename", renameDelegate],
  ["perl-rename", renameDelegate],
]);
