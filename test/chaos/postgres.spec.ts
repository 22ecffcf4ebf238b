// kill -9 the embedded PostgreSQL (its postmaster), idle and under load; see suite.ts.
import { chaosSuite } from "./suite.js";

chaosSuite("postgres");
