// kill -9 the executor, idle and under load; see suite.ts.
import { chaosSuite } from "./suite.js";

chaosSuite("executor");
