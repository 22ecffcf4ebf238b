// kill -9 the classifier, idle and under load; see suite.ts.
import { chaosSuite } from "./suite.js";

chaosSuite("classifier");
