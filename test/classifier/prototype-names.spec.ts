// Program names, subcommands and options that are also Object.prototype's
// property names (`constructor`, `toString`, `__proto__` …): the engine
// looked some up in plain objects and threw (the service answered an
// internal error) or took Object's own functions for table entries. Every
// table is read by own keys only; an unknown name is an unknown program.
import { beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../../services/classifier/verdict.js";
import { getEngine, judge } from "./engine-fixture.js";

const NAMES = [...Object.getOwnPropertyNames(Object.prototype), "__proto__", "prototype"];
const FORMS = (n: string) => [
  n,
  `${n} x`,
  `sudo ${n} x`,
  `nice ${n} x`,
  `env A=1 ${n}`,
  `git ${n} --abcd`,
  `cmake -E ${n}`,
  `${n}=1 ls`,
  `ls --${n}`,
  `find . -${n}`,
  `curl --${n} x`,
];

let engine: Engine;
beforeAll(async () => {
  engine = await getEngine();
});

describe("names that are Object.prototype's properties", () => {
  it.each(NAMES)("%s: judged without an error in every position, never allowed as a program", (name) => {
    for (const source of ["claude", "sudo"] as const) {
      for (const host of ["primary", "server-01"] as const) {
        for (const command of FORMS(name)) {
          const v = judge(engine, { command, source, host, cwd: "/tmp" });
          expect(v.tier, `${source} ${host}: ${command}`).toBeGreaterThanOrEqual(0);
        }
        for (const command of [name, `${name} x`, `nice ${name} x`])
          expect(judge(engine, { command, source, host, cwd: "/tmp" }).tier, `${source} ${host}: ${command}`).toBeGreaterThanOrEqual(2);
      }
    }
  });
});
