"""``pdf-compatibility``: PDF file parts become text for targets without native PDF input."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params import ids
from engine.params.features.base import Decision, Feature
from engine.params.jsv import get

if TYPE_CHECKING:
    from engine.params.scope import RequestScope

NATIVE_PDF_IDS = ("openai", "anthropic", "google", "azure", "azure-responses", "google-vertex",
                  "bedrock", "anthropic-vertex")


def supports_native_pdf(scope: RequestScope) -> bool:
    provider = scope.provider
    if "qiniu" in (get(provider, "id"), get(provider, "presetProviderId")):
        return False
    pid = scope.ai_sdk_provider_id
    if pid not in NATIVE_PDF_IDS:
        return False
    if pid in ("openai", "azure", "azure-responses"):
        return ids.is_openai(scope.model)
    if pid in ("anthropic", "anthropic-vertex", "bedrock"):
        return ids.is_anthropic(scope.model)
    return ids.is_gemini(scope.model)


class PdfCompatibilityFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        return Decision(True, "always applies")

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        part = {"type": "file", "mediaType": "application/pdf", "filename": "report.pdf",
                "data": "<pdf bytes>"}
        if supports_native_pdf(scope):
            return {"samplePart": part, "after": part,
                    "effect": "target reads PDFs natively: passed through"}
        return {"samplePart": part,
                "after": {"type": "text", "text": "report.pdf\n<extracted text>"},
                "effect": "target lacks native PDF input: replaced by extracted text"}


FEATURE = PdfCompatibilityFeature("pdf-compatibility",
                                  summary="middleware: PDF parts → text when not native")
