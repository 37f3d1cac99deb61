"""Options that cannot go together are usage errors (exit 2) before anything runs or is written."""

from __future__ import annotations

import pytest

from .helpers import FILTERS, rulewright

FILTER = str(FILTERS / "git-status.json")


@pytest.mark.parametrize(("argv", "said"), [
    (["export", FILTER, "-o", "OUT/x.json", "--install-global"], "-o/--output and --install-global are alternatives"),
    (["export", FILTER, "--install-global", "--with-trust"], "--with-trust applies to -o"),
    (["export", FILTER, "-o", "OUT/x.json", "--overwrite"], "--overwrite only applies with --install-global"),
    (["export", FILTER, "-o", "OUT/x.json", "--data-dir", "OUT"], "--data-dir only applies with --install-global"),
    (["export", FILTER, "-o", "OUT/x.json", "--toml"], "--toml writes TOML; name the output *.toml"),
    (["export", FILTER, "-o", "OUT/x.toml"], "is a .toml name; add --toml"),
    (["verify", FILTER, "--project", "OUT"], "give PATHs, or --project/--data-dir"),
    (["verify", "--builtin", "OUT"], "--builtin and --trust-project apply to the all-scopes gate"),
    (["verify", "--project", "OUT", "--engine"], "--rtk, --engine and --no-activation apply to PATHs"),
    (["trust", "OUT", "--check", "--write"], "not allowed with argument --check"),
], ids=lambda v: " ".join(v[3:]) if isinstance(v, list) else None)
def test_conflicting_options_are_usage_errors(argv: list[str], said: str, tmp_path) -> None:
    argv = [a.replace("OUT", str(tmp_path)) for a in argv]
    result = rulewright(*argv)
    assert result.code == 2, result.err
    assert said in result.err
    assert not any(tmp_path.iterdir())          # nothing was written


def test_export_output_with_a_trailing_slash_is_a_folder(tmp_path) -> None:
    # "-o build/" used to write a file named "build"
    result = rulewright("export", FILTER, "-o", f"{tmp_path / 'build'}/")
    assert result.code == 0, result.err
    assert (tmp_path / "build" / "filters.json").is_file()
