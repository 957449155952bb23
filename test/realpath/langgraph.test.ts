// The real-path harness on langgraph (realpath.ts).
import { describeRealPath } from "./realpath.js";

describeRealPath("langgraph");
