#!/usr/bin/env bash
# Build the wheel, install it into a fresh venv in an empty temp folder (no source tree in
# reach) and use it as a user would: validate a clean and a broken pack, compress with the
# built-in packs, filter with the built-in filters, verify the built-in library, and render the
# IDE offscreen on the bundled example workspace. Any failure fails the script.
# Usage: packaging/wheel_smoke.sh [PYTHON]   (default: python3; PYTHON makes the fresh venv)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${1:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/rulewright-wheel-smoke.XXXXXX")"
trap 'rm -rf "$work"' EXIT
step() { printf '== wheel smoke: %s\n' "$*"; }
fail() { printf 'wheel smoke FAILED: %s\n' "$*" >&2; exit 1; }

step "build the wheel"
"$python" -m venv "$work/buildenv"
"$work/buildenv/bin/python" -m pip install -q --upgrade pip
"$work/buildenv/bin/python" -m pip wheel -q --no-deps -w "$work/dist" "$root"
wheel=("$work"/dist/rulewright-*.whl)
[ -f "${wheel[0]}" ] || fail "no wheel built"

step "install $(basename "${wheel[0]}") into a fresh venv"
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --upgrade pip
"$work/venv/bin/python" -m pip install -q "${wheel[0]}"
rw="$work/venv/bin/rulewright"

mkdir "$work/empty" && cd "$work/empty"   # an empty folder: nothing to find relative to it
export RULEWRIGHT_CONFIG_DIR="$work/config" RULEWRIGHT_DATA_DIR="$work/data"
unset RULEWRIGHT_HOME PYTHONPATH
"$rw" --version

step "the package is the installed one, its data inside it"
"$work/venv/bin/python" - "$root" <<'PY'
import sys
from pathlib import Path
import engine, engine.paths as p
root = Path(sys.argv[1]).resolve()
here = Path(engine.__file__).resolve()
assert root not in here.parents, f"engine imported from the source tree: {here}"
for folder in (p.builtin_rules_dir(), p.builtin_filters_dir(), p.schemas_dir(), p.example_workspace_dir()):
    assert folder.is_dir() and any(folder.iterdir()), f"missing: {folder}"
    assert root not in folder.resolve().parents, f"read from the source tree: {folder}"
def files(top):
    return {q.relative_to(top).as_posix() for q in top.rglob("*") if q.is_file() and "__pycache__" not in q.parts}
for name in p.DATA_FOLDERS:
    missing = files(root / name) - files(p.project_root() / name)
    assert not missing, f"{name}/ files not in the wheel: {sorted(missing)[:5]}"
print("data:", p.project_root())
PY

step "validate: a clean pack passes, a broken one fails with file:line:col"
cat > clean.json <<'JSON'
{"language": "en", "category": "filler", "rules": [
  {"name": "smoke_really", "pattern": "\\breally ", "replacement": "", "context": "all", "category": "filler"}]}
JSON
cat > broken.json <<'JSON'
{"language": "en", "category": "filler", "rules": [
  {"name": "smoke_broken", "pattern": "(unclosed", "replacement": "", "context": "all", "category": "filler"}]}
JSON
"$rw" validate clean.json || fail "validate of a clean pack"
set +e; out=$("$rw" validate broken.json 2>&1); code=$?; set -e
echo "$out"
[ $code -eq 1 ] || fail "validate of a broken pack exited $code (want 1)"
grep -Eq 'broken\.json:[0-9]+:[0-9]+: .*error.*(Unterminated group|unclosed|group)' <<<"$out" \
  || fail "validate did not report the regex error with file:line:col"

step "compress with the built-in packs"
prose="Hello there! I would really just like to basically say that, in my honest opinion, this is actually a very simple test of the compression of this prose, and I think that it should work quite well."
out=$(printf '%s\n' "$prose" | "$rw" compress)
echo "$out"
[ ${#out} -lt ${#prose} ] || fail "compress saved nothing (${#out} >= ${#prose} characters): built-in packs not found?"

step "filter with the built-in filters"
log=$( { echo "On branch main"; echo "Your branch is up to date with 'origin/main'."; echo;
         echo "Changes not staged for commit:"; echo '  (use "git add <file>..." to update what will be committed)';
         for i in $(seq 1 40); do echo "	modified:   src/file$i.ts"; done; echo;
         echo 'no changes added to commit (use "git add" and/or "git commit -a")'; } )
out=$(printf '%s\n' "$log" | "$rw" filter --command "git status" --json)
"$work/venv/bin/python" -c '
import json, sys
r = json.loads(sys.argv[1])
print("filter:", r.get("filterId"), "from", r.get("filterSource"), "| lines kept:", r["text"].count(chr(10)) + 1)
assert r.get("filterId") and r.get("filterSource") == "builtin", "no built-in filter matched git status"
' "$out" || fail "filter did not use a built-in filter"

step "verify the built-in filter library"
"$rw" verify | tail -3

step "IDE screenshot (offscreen) on the bundled example workspace"
set +e; out=$(QT_QPA_PLATFORM=offscreen "$rw" gui --screenshot "$work/shot.png" --size 1280x720 2>&1); code=$?; set -e
echo "$out"
[ $code -eq 0 ] || fail "gui --screenshot exited $code"
grep -q "example-workspace" <<<"$out" || fail "the screenshot did not open the bundled example workspace"
"$work/venv/bin/python" -c '
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (1280, 720), (w, h)
assert len(data) > 20000, f"suspiciously small PNG ({len(data)} bytes): blank window?"
print(f"screenshot {w}x{h}, {len(data)} bytes")
' "$work/shot.png" || fail "bad screenshot"
[ -z "${RULEWRIGHT_SMOKE_KEEP_SHOT:-}" ] || cp "$work/shot.png" "$RULEWRIGHT_SMOKE_KEEP_SHOT"
step "all passed"
