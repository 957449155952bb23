"""The team's agents: one @agent method per definition agent (agents[]).

One @task per pipeline step (config/tasks.yaml). The flow (flow.py) runs each step as a
one-task crew, the answers it waits for as the task's context: it is the one way the
pipeline runs (`crewai run` runs the flow of this `type = "flow"` project), so there is no
@crew.
"""

from __future__ import annotations

from crewai import Agent, Task
from crewai.project import CrewBase, agent, task
from envelope_runtime.crewai.steps import PipelineCrew
from envelope_runtime.team_package import TeamPackage


@CrewBase
class ParallelGatesCrew(PipelineCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("parallel_gates")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] procurement-lead
    @agent
    def procurement_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["procurement_lead"],
            llm=self.llm_of("procurement-lead"),
            tools=self.tools_of("procurement-lead"),
        )

    # agents[1] contract-analyst (reportsToKey procurement-lead)
    @agent
    def contract_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["contract_analyst"],
            llm=self.llm_of("contract-analyst"),
            tools=self.tools_of("contract-analyst"),
        )

    # agents[2] security-analyst (reportsToKey procurement-lead)
    @agent
    def security_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["security_analyst"],
            llm=self.llm_of("security-analyst"),
            tools=self.tools_of("security-analyst"),
        )

    # agents[3] onboarding-coordinator (reportsToKey procurement-lead)
    @agent
    def onboarding_coordinator(self) -> Agent:
        return Agent(
            config=self.agents_config["onboarding_coordinator"],
            llm=self.llm_of("onboarding-coordinator"),
            tools=self.tools_of("onboarding-coordinator"),
        )

    # pipeline[0] intake
    @task
    def intake(self) -> Task:
        return Task(config=self.tasks_config["intake"])

    # pipeline[1] contract-redlines
    @task
    def contract_redlines(self) -> Task:
        return Task(config=self.tasks_config["contract_redlines"])

    # pipeline[2] security-findings
    @task
    def security_findings(self) -> Task:
        return Task(config=self.tasks_config["security_findings"])

    # pipeline[3] vendor-letter
    @task
    def vendor_letter(self) -> Task:
        return Task(config=self.tasks_config["vendor_letter"])

    # pipeline[4] onboarding-decision
    @task
    def onboarding_decision(self) -> Task:
        return Task(config=self.tasks_config["onboarding_decision"])


TeamCrew = ParallelGatesCrew
