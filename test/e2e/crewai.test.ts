// Every valid definition exported to CrewAI runs its own tests on CrewAI (python/crewai.lock).
import { describeProjectsOnFramework } from "./projects.js";

describeProjectsOnFramework("crewai", "CrewAI");
