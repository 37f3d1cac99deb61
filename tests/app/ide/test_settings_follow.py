"""Settings ▸ OK with a new default profile or intensity reaches the previews seeded from it,
through the real main window, unless the user chose another value in a preview."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog

pytestmark = pytest.mark.gui


def _settings(window, dialogs, **values) -> None:
    def fill(dialog):
        for name, value in values.items():
            getattr(dialog, name).setCurrentText(value)
        return QDialog.DialogCode.Accepted

    dialogs.answers["SettingsDialog"] = fill
    window.open_settings()


def test_a_new_default_moves_the_previews_that_kept_the_old_one(qtbot, window, dialogs):
    caveman, rtk = window.panel_widgets["caveman-preview"], window.panel_widgets["rtk-preview"]
    assert caveman.profile.currentText() == rtk.profile.currentText() == "omniroute"
    assert caveman.intensity.currentText() == "full"
    _settings(window, dialogs, profile="strict", intensity="ultra")
    assert caveman.profile.currentText() == rtk.profile.currentText() == "strict"
    assert caveman.intensity.currentText() == "ultra"
    assert window.status_profile.text().startswith("default profile strict")

    caveman.intensity.setCurrentText("lite")  # the user's own choice in the preview
    _settings(window, dialogs, intensity="full")
    assert caveman.intensity.currentText() == "lite"  # it had left the default: it stays


def test_a_new_default_language_moves_the_caveman_preview(qtbot, window, dialogs):
    caveman = window.panel_widgets["caveman-preview"]
    assert caveman.language.currentText() == "en"

    def fill(dialog):
        # the bundled packs' languages to pick from; any other may be typed
        listed = [dialog.language.itemText(i) for i in range(dialog.language.count())]
        assert {"en", "de", "pt-BR", "zh"} <= set(listed) and dialog.language.isEditable()
        dialog.language.setCurrentText("de")
        return QDialog.DialogCode.Accepted

    dialogs.answers["SettingsDialog"] = fill
    window.open_settings()
    assert caveman.language.currentText() == "de"
    qtbot.waitUntil(lambda: caveman.preview is not None and caveman.preview.language == "de", timeout=10000)


def test_settings_has_a_shortcut_on_every_platform(window):
    assert not window.actions_["settings"].shortcut().isEmpty()
