"""Cherry Studio v2 ``buildAgentParams``: the AI request params pipeline (spec params.md).

``build_params_report(payload, profile=..., features=...)`` turns a ``{request, provider, model,
assistant, env?, mcpServers?, cherryinProvider?}`` payload into the report the reference's
params builder implies, with quirk diagnostics and an ``explain`` section.
"""

from engine.params.errors import ParamsError
from engine.params.features.base import Decision, Feature, Plugin, RequestFeature
from engine.params.features.internal import INTERNAL_FEATURES
from engine.params.hooks import compose_hooks
from engine.params.pipeline import PROFILES, REPORT_KEYS, build_params_report
from engine.params.quirks import QUIRKS

__all__ = ["INTERNAL_FEATURES", "PROFILES", "QUIRKS", "REPORT_KEYS", "Decision", "Feature",
           "ParamsError", "Plugin", "RequestFeature", "build_params_report", "compose_hooks"]
