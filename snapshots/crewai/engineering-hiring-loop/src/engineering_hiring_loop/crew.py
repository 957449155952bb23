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
class EngineeringHiringLoopCrew(PipelineCrew):
    """The agents. Add a tool as `tools=[*self.tools_of("<key>"), MyTool()]`; `llm:` and
    `tools:` in config/agents.yaml are honoured too. The base class builds the crews from
    team.AGENTS: an @agent added here joins no crew until you put it in one."""

    # this team's package: where the base class finds team.py, models.py and config/
    package = TeamPackage("engineering_hiring_loop")
    # CrewAI memory for the team's crews; it and knowledge/ use `embedder` (None: OpenAI's).
    memory = False
    embedder = None

    # agents[0] recruiting-lead
    @agent
    def recruiting_lead(self) -> Agent:
        return Agent(
            config=self.agents_config["recruiting_lead"],
            llm=self.llm_of("recruiting-lead"),
            tools=self.tools_of("recruiting-lead"),
        )

    # agents[1] sourcer (reportsToKey recruiting-lead)
    @agent
    def sourcer(self) -> Agent:
        return Agent(
            config=self.agents_config["sourcer"],
            llm=self.llm_of("sourcer"),
            tools=self.tools_of("sourcer"),
        )

    # agents[2] screener (reportsToKey recruiting-lead)
    @agent
    def screener(self) -> Agent:
        return Agent(
            config=self.agents_config["screener"],
            llm=self.llm_of("screener"),
            tools=self.tools_of("screener"),
        )

    # agents[3] outreach-writer (reportsToKey recruiting-lead)
    @agent
    def outreach_writer(self) -> Agent:
        return Agent(
            config=self.agents_config["outreach_writer"],
            llm=self.llm_of("outreach-writer"),
            tools=self.tools_of("outreach-writer"),
        )

    # agents[4] interview-coordinator (reportsToKey recruiting-lead)
    @agent
    def interview_coordinator(self) -> Agent:
        return Agent(
            config=self.agents_config["interview_coordinator"],
            llm=self.llm_of("interview-coordinator"),
            tools=self.tools_of("interview-coordinator"),
        )

    # agents[5] debrief-analyst (reportsToKey recruiting-lead)
    @agent
    def debrief_analyst(self) -> Agent:
        return Agent(
            config=self.agents_config["debrief_analyst"],
            llm=self.llm_of("debrief-analyst"),
            tools=self.tools_of("debrief-analyst"),
        )

    # agents[6] offer-drafter (reportsToKey recruiting-lead)
    @agent
    def offer_drafter(self) -> Agent:
        return Agent(
            config=self.agents_config["offer_drafter"],
            llm=self.llm_of("offer-drafter"),
            tools=self.tools_of("offer-drafter"),
        )

    # pipeline[0] source
    @task
    def source(self) -> Task:
        return Task(config=self.tasks_config["source"])

    # pipeline[1] screen
    @task
    def screen(self) -> Task:
        return Task(config=self.tasks_config["screen"])

    # pipeline[2] outreach
    @task
    def outreach(self) -> Task:
        return Task(config=self.tasks_config["outreach"])

    # pipeline[3] schedule-interviews
    @task
    def schedule_interviews(self) -> Task:
        return Task(config=self.tasks_config["schedule_interviews"])

    # pipeline[4] debrief
    @task
    def debrief(self) -> Task:
        return Task(config=self.tasks_config["debrief"])

    # pipeline[5] draft-offers
    @task
    def draft_offers(self) -> Task:
        return Task(config=self.tasks_config["draft_offers"])

    # pipeline[6] loop-summary
    @task
    def loop_summary(self) -> Task:
        return Task(config=self.tasks_config["loop_summary"])


TeamCrew = EngineeringHiringLoopCrew
