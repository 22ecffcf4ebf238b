// kill -9 the gateway, idle and under load; see suite.ts.
import { chaosSuite } from "./suite.js";

chaosSuite("gateway");
