"""Fusion style with a light or dark palette that follows the system (or the user's choice).

Diff and highlight tints are picked per theme so they work on both backgrounds; they are never
the only signal (the diff view also marks rows with -/+).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QPainter, QPalette, QTextCharFormat
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory, QStyleOption, QWidget


@dataclass(frozen=True)
class Tints:
    dark: bool
    keyword: str
    string: str
    key: str
    number: str
    punct: str
    error: str
    warning: str
    info: str
    removed: str
    inserted: str
    current_line: str
    regex_escape: str
    regex_class: str
    regex_group: str
    regex_quant: str
    regex_anchor: str


LIGHT = Tints(False, "#0033b3", "#067d17", "#871094", "#1750eb", "#555555", "#d32f2f", "#b26a00",
              "#1565c0", "#ffdddd", "#ddffdd", "#f2f6fc", "#0037a6", "#8c4a00", "#6f42c1", "#d73a49", "#005cc5")
DARK = Tints(True, "#cc7832", "#6a8759", "#9876aa", "#6897bb", "#a9b7c6", "#ff6b68", "#e0a040",
             "#64b5f6", "#5c2b2b", "#2b4d2b", "#2a2d33", "#cc7832", "#ffc66d", "#b389d9", "#ff8a80", "#82aaff")

_current = LIGHT


def tints() -> Tints:
    return _current


def changed_stretch(line: QTextCharFormat, tint: QColor | None) -> QTextCharFormat:
    """The look of the stretch that changed inside a removed or inserted diff line (``line``: the
    line's format; ``tint``: its background): the tint deeper, underlined. One look for Compare,
    the Repair playground and the Tests panel. The lightness moves, hue and saturation stay
    (``darker`` greyed the pale red to brown)."""
    marked = QTextCharFormat(line)
    if tint is not None:
        lightness = tint.lightness()
        shifted = min(255, lightness + 40) if tints().dark else max(0, lightness - 36)
        marked.setBackground(QColor.fromHsl(tint.hslHue(), tint.hslSaturation(), shifted, tint.alpha()))
    marked.setFontUnderline(True)
    return marked


def stripe_style(level: str = "warning") -> str:
    """A note's look: a coloured bar at its left edge, in the level's colour (errors red, warnings
    amber, the rest blue). One look for the previews' banners and the notes over a result."""
    t = tints()
    colour = {"error": t.error, "warning": t.warning}.get(level, t.info)
    return f"QLabel {{ border-left: 4px solid {colour}; padding: 4px 6px; }}"


def system_is_dark() -> bool:
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    if scheme is not None:
        try:
            return scheme() == Qt.ColorScheme.Dark
        except (AttributeError, TypeError):
            pass
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def dark_palette() -> QPalette:
    """Every role of every colour group: Fusion draws bevels from Light/Midlight/Mid/Dark/Shadow
    and a disabled button from the Disabled group's Button, which a default QPalette has light
    (disabled buttons stood out as the brightest controls of the dark window)."""
    p = QPalette()
    base, window, text = QColor("#1e1f22"), QColor("#2b2d30"), QColor("#dfe1e5")
    button = QColor("#35373b")  # a shade above the window, as Fusion's light palette has it
    muted = QColor("#6f737a")
    roles = {
        QPalette.ColorRole.Window: window, QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base, QPalette.ColorRole.AlternateBase: QColor("#26282b"),
        QPalette.ColorRole.Text: text, QPalette.ColorRole.BrightText: QColor("#ffffff"),
        QPalette.ColorRole.Button: button, QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.Light: QColor("#4a4d52"), QPalette.ColorRole.Midlight: QColor("#3e4145"),
        QPalette.ColorRole.Mid: QColor("#26282b"), QPalette.ColorRole.Dark: QColor("#1b1c1f"),
        QPalette.ColorRole.Shadow: QColor("#0f1011"),
        QPalette.ColorRole.ToolTipBase: QColor("#3c3f41"), QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.Highlight: QColor("#2f65ca"), QPalette.ColorRole.HighlightedText: QColor("#ffffff"),
        QPalette.ColorRole.PlaceholderText: QColor("#8c8f94"),
        QPalette.ColorRole.Link: QColor("#6ea8fe"), QPalette.ColorRole.LinkVisited: QColor("#b48ead"),
    }
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive, QPalette.ColorGroup.Disabled):
        for role, color in roles.items():
            p.setColor(group, role, color)
    disabled = QPalette.ColorGroup.Disabled
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        p.setColor(disabled, role, muted)
    p.setColor(disabled, QPalette.ColorRole.Button, window)  # (flatter than an enabled one)
    p.setColor(disabled, QPalette.ColorRole.Highlight, QColor("#3c3f41"))
    p.setColor(disabled, QPalette.ColorRole.HighlightedText, muted)
    return p


class DarkFusion(QProxyStyle):
    """Fusion, with the frames of check boxes and radio buttons drawn in a colour that shows: Fusion
    outlines them in the window colour darkened, which on a dark palette is the base colour they
    enclose, so an unticked box (the Trust panel's export list, "and trust it") was not seen."""

    FRAME, FRAME_DISABLED = QColor("#8c8f94"), QColor("#55585d")
    _FRAMED = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck,
               QStyle.PrimitiveElement.PE_IndicatorRadioButton)

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter,
                      widget: QWidget | None = None) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element not in self._FRAMED:
            return
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.translate(0.5, 0.5)  # (as Fusion draws them: on pixel centres, a pixel in from the edge)
        painter.setPen(self.FRAME if enabled else self.FRAME_DISABLED)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = option.rect.adjusted(0, 0, -1, -1)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(rect)
        else:
            painter.drawRect(rect)
        painter.restore()


def apply_theme(app: QApplication, choice: str = "system") -> Tints:
    """Fusion + light/dark palette; returns the tints the editors should use."""
    global _current
    dark = system_is_dark() if choice == "system" else choice == "dark"
    if dark:
        app.setStyle(DarkFusion())
    else:
        app.setStyle("Fusion")
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    _current = DARK if dark else LIGHT
    return _current


def mono_font(family: str = "", size: int = 10) -> QFont:
    font = QFont(family) if family else QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setFixedPitch(True)
    font.setPointSize(size)
    return font
