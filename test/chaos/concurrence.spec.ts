// kill -9 the concurrence, idle and under load; see suite.ts.
import { chaosSuite } from "./suite.js";

chaosSuite("concurrence");
