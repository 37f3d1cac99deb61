#!/usr/bin/env bash
# Build the one-folder desktop bundle: dist/rulewright/rulewright (see packaging/README.md).
# Usage: packaging/build.sh [PYTHON]   (default: .venv/bin/python; needs `pip install pyinstaller`)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
python="${1:-$root/.venv/bin/python}"
cd "$root"
if ! "$python" -c "import PyInstaller" 2>/dev/null; then
    echo "packaging/build.sh: PyInstaller is not installed; run: $python -m pip install 'rulewright[package]'" >&2
    exit 2
fi
# the o200k ranks (Codex token counts, engine/o200k.py) from the bpe-openai wheel, without its native module
ranks="$("$python" -c 'from engine.o200k import ranks_path; print(ranks_path())')"
"$python" -m PyInstaller --noconfirm --clean --onedir --windowed --name rulewright \
    --distpath "$root/dist" --workpath "$root/build/pyinstaller" --specpath "$root/build" \
    --paths "$root" \
    --collect-submodules engine --collect-submodules app \
    --add-data "$root/resources:engine/_data/resources" \
    --add-data "$root/rules:engine/_data/rules" \
    --add-data "$root/filters:engine/_data/filters" \
    --add-data "$ranks:engine/_data" --hidden-import tiktoken --exclude-module bpe_openai \
    --icon "$root/resources/icons/rulewright.png" \
    --exclude-module tkinter --exclude-module pytest --exclude-module hypothesis \
    "$here/rulewright_main.py"
install -m 644 "$here/rulewright.desktop" "$root/dist/rulewright/rulewright.desktop"
install -m 644 "$root/resources/icons/rulewright.svg" "$root/dist/rulewright/rulewright.svg"
install -m 644 "$root/resources/icons/rulewright.png" "$root/dist/rulewright/rulewright.png"
echo "built $root/dist/rulewright/rulewright"
