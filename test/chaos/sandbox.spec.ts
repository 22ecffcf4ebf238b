// kill -9 the sandbox, idle and under load; see suite.ts.
import { chaosSuite } from "./suite.js";

chaosSuite("sandbox");
