// Which engine the classifier serves. The starter engine (a short
// enumerated read-only list, all else tier 4) until the policy engine lands.
import type { Config } from "../shared/config.js";
import { enumeratedEngine } from "./enumerated.js";
import type { Engine } from "./verdict.js";

export async function loadClassifierEngine(_config: Config): Promise<Engine> {
  return enumeratedEngine();
}
