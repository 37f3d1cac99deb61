"""Preferences: theme, editor font, regex timeout, default profile, intensity and language."""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFontComboBox,
    QFormLayout,
    QSpinBox,
    QWidget,
)

from app.widgets.elided_combo import ElidedComboBox
from engine.paths import builtin_languages
from engine.workspace.settings import INTENSITIES, PROFILES, THEMES, Settings


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.settings = settings
        form = QFormLayout(self)
        self.theme = ElidedComboBox()
        self.theme.addItems(THEMES)
        self.theme.setCurrentText(settings.theme)
        self.font_box = QFontComboBox()
        self.font_box.setFontFilters(QFontComboBox.FontFilter.MonospacedFonts)
        if settings.font_family:
            self.font_box.setCurrentFont(QFont(settings.font_family))
        self.font_size = QSpinBox()
        self.font_size.setRange(6, 48)
        self.font_size.setValue(settings.font_size)
        self.timeout = QSpinBox()
        self.timeout.setRange(10, 60_000)
        self.timeout.setSuffix(" ms")
        self.timeout.setValue(settings.regex_timeout_ms)
        self.timeout.setToolTip("Budget for every regex call (engine.jsregex); a runaway pattern reports "
                                "'timed out after N ms' on its rule instead of hanging")
        self.profile = ElidedComboBox()
        self.profile.addItems(PROFILES)
        self.profile.setCurrentText(settings.default_profile)
        self.profile.setToolTip("omniroute: reproduce the reference, quirks included (each reported by id); "
                                "strict: apply the fixes")
        self.intensity = ElidedComboBox()
        self.intensity.addItems(INTENSITIES)
        self.intensity.setCurrentText(settings.intensity)
        # the bundled packs' languages to pick from, and any other typed in (a workspace's own)
        self.language = ElidedComboBox()
        self.language.setEditable(True)
        self.language.addItems(list(dict.fromkeys([*builtin_languages(), settings.language])))
        self.language.setCurrentText(settings.language)
        self.language.setToolTip("Caveman language pack used by previews: a bundled one, or type another "
                                 "(a workspace's rules/<language>/)")
        form.addRow("Theme", self.theme)
        form.addRow("Editor font", self.font_box)
        form.addRow("Font size", self.font_size)
        form.addRow("Regex timeout", self.timeout)
        form.addRow("Default profile", self.profile)
        form.addRow("Intensity", self.intensity)
        form.addRow("Language", self.language)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def apply(self) -> Settings:
        """Copy the dialog's values into the settings object (the caller saves and re-applies)."""
        s = self.settings
        s.theme = self.theme.currentText()
        s.font_family = self.font_box.currentFont().family()
        s.font_size = self.font_size.value()
        s.regex_timeout_ms = self.timeout.value()
        s.default_profile = self.profile.currentText()
        s.intensity = self.intensity.currentText()
        s.language = self.language.currentText().strip() or "en"
        s.normalize()
        return s
