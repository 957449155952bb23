"""CrewAI knowledge sources for the files of knowledge/ (crew_base.knowledge_files): imported
only when it has any, so a crew without knowledge builds none of this."""

from __future__ import annotations

from pathlib import Path

from crewai.knowledge.source.base_file_knowledge_source import BaseFileKnowledgeSource
from crewai.knowledge.source.csv_knowledge_source import CSVKnowledgeSource
from crewai.knowledge.source.json_knowledge_source import JSONKnowledgeSource
from crewai.knowledge.source.pdf_knowledge_source import PDFKnowledgeSource
from crewai.knowledge.source.text_file_knowledge_source import TextFileKnowledgeSource

# A suffix (crew_base.KNOWLEDGE_SUFFIXES) -> its CrewAI knowledge source.
KINDS: dict[str, type[BaseFileKnowledgeSource]] = {
    ".txt": TextFileKnowledgeSource,
    ".md": TextFileKnowledgeSource,
    ".csv": CSVKnowledgeSource,
    ".json": JSONKnowledgeSource,
    ".pdf": PDFKnowledgeSource,
}


def sources(files: list[Path]) -> list[BaseFileKnowledgeSource]:
    """A CrewAI knowledge source per kind of file among `files`."""
    names: dict[type[BaseFileKnowledgeSource], list[str]] = {}
    for path in files:
        names.setdefault(KINDS[path.suffix.lower()], []).append(path.name)
    return [kind(file_paths=paths) for kind, paths in names.items()]
