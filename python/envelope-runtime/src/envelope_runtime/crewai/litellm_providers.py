"""A model variable naming a provider CrewAI's own clients do not serve (llms.factory_problems):
does LiteLLM serve it? Imported for such a variable only: LiteLLM's import takes seconds, and
that provider's model calls would import it anyway."""

from __future__ import annotations

from crewai.llm import PROVIDER_ALIASES


def litellm_problem(variable: str, value: str, provider: str) -> str | None:
    """Why `variable`=`value` cannot run, its `provider` served by neither; None if LiteLLM
    serves it."""
    try:
        import litellm
    except ImportError:
        return (
            f"{variable}={value!r}: {provider!r} is not a provider CrewAI serves itself "
            f"({', '.join(PROVIDER_ALIASES)}); others need LiteLLM: "
            "pip install 'crewai[litellm]'"
        )
    if provider in litellm.provider_list:
        return None
    return f"{variable}={value!r}: no provider {provider!r} in CrewAI or LiteLLM"
