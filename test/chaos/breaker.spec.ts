// kill -9 the breaker, idle and under load; see suite.ts.
import { chaosSuite } from "./suite.js";

chaosSuite("breaker");
