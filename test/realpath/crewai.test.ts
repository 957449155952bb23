// The real-path harness on crewai (realpath.ts).
import { describeRealPath } from "./realpath.js";

describeRealPath("crewai");
