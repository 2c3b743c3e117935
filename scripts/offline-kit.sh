#!/usr/bin/env bash
# Build an offline install kit: ONE folder holding every wheel ClinParser needs for a given
# platform and Python, ClinParser's own wheel included, ready to copy to a machine with no
# network and install there with `pip install --no-index --find-links KIT clinparser`.
# See docs/offline-install.md.
set -euo pipefail

TORCH_VERSION=2.13.0        # the README's pin: the CPU build is all ClinParser needs
TORCHVISION_VERSION=0.28.0  # torchvision's release for torch 2.13 (docling-ibm-models requires it)

usage() {
    cat <<EOF
usage: scripts/offline-kit.sh --out DIR [options]

Build one folder with every wheel ClinParser needs (its own wheel included), for installing on
a machine with no network:  pip install --no-index --find-links DIR clinparser

  --out DIR            the kit folder to create (required; must be absent or empty)
  --python X.Y         target Python version (default: the running python's, ${PYTHON:-python3})
  --platform TAG       target wheel platform tag, e.g. manylinux_2_28_x86_64, macosx_11_0_arm64,
                       win_amd64 (default: this machine's)
  --extras LIST        comma list of ClinParser extras to add, from pyproject.toml's
                       [project.optional-dependencies] (today: ${EXTRAS_KNOWN:-see pyproject.toml});
                       docling and torch (CPU) are core dependencies and always in the kit
  --find-links DIR     take wheels only from DIR (repeatable): no package index is asked
  --from-cache         no package index: wheels only from --find-links folders and pip's
                       configured find-links
  --extra-index-url U  one more index (repeatable), e.g. https://download.pytorch.org/whl/cpu
                       where the default index has no CPU build of torch
  --force              replace the kit already in --out (a folder holding a MANIFEST)
  -h, --help           this text

The kit gets requirements.txt (every wheel pinned with its sha256, for --require-hashes),
MANIFEST (sha256sum format: cd DIR && sha256sum -c MANIFEST) and KIT-INFO. Exit codes: 0 built,
2 bad arguments, 3 a needed wheel could not be had (no network, not in the local folders),
1 anything else. Environment: PYTHON (the python whose pip runs; default python3).
EOF
}

die() { echo "offline-kit: $*" >&2; exit 1; }
bad_args() { echo "offline-kit: $*" >&2; echo >&2; usage >&2; exit 2; }

PY=${PYTHON:-python3}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="" PYVER="" PLATFORM="" EXTRAS="" FROM_CACHE=0 FORCE=0
FIND_LINKS=() EXTRA_INDEX=()

# pyproject's extras (tomllib is Python 3.11+; tomli where installed on 3.10)
EXTRAS_KNOWN=$("$PY" - "$REPO/pyproject.toml" <<'EOF' 2>/dev/null || true
import sys
try:
    import tomllib
except ImportError:
    import tomli as tomllib
with open(sys.argv[1], "rb") as f:
    print(",".join(sorted(tomllib.load(f)["project"].get("optional-dependencies", {}))))
EOF
)

need_value() { [[ $# -ge 2 && -n "$2" && "$2" != --* ]] || bad_args "$1 needs a value"; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --out) need_value "$@"; OUT=$2; shift 2 ;;
        --python) need_value "$@"; PYVER=$2; shift 2 ;;
        --platform) need_value "$@"; PLATFORM=$2; shift 2 ;;
        --extras) need_value "$@"; EXTRAS=$2; shift 2 ;;
        --find-links) need_value "$@"; FIND_LINKS+=("$2"); FROM_CACHE=1; shift 2 ;;
        --from-cache) FROM_CACHE=1; shift ;;
        --extra-index-url) need_value "$@"; EXTRA_INDEX+=("$2"); shift 2 ;;
        --force) FORCE=1; shift ;;
        *) bad_args "unknown argument: $1" ;;
    esac
done

[[ -n "$OUT" ]] || bad_args "--out DIR is required"
command -v "$PY" >/dev/null || bad_args "no python: $PY (set PYTHON)"
[[ -n "$EXTRAS_KNOWN" ]] || [[ -z "$EXTRAS" ]] || die "could not read the extras from $REPO/pyproject.toml (needs Python 3.11+ or tomli)"
if [[ -z "$PYVER" ]]; then
    PYVER=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
fi
[[ "$PYVER" =~ ^3\.[0-9]+$ ]] || bad_args "--python wants X.Y, like 3.11: got $PYVER"
if [[ -z "$PLATFORM" ]]; then
    # the most specific tag this machine's pip accepts, e.g. manylinux_2_36_x86_64
    PLATFORM=$("$PY" -c 'from pip._vendor.packaging import tags; print(next(t.platform for t in tags.sys_tags() if t.platform != "any"))')
fi
[[ "$PLATFORM" =~ ^[A-Za-z0-9_.]+$ ]] || bad_args "bad --platform: $PLATFORM"
# pip's --platform takes a tag literally (it expands macOS tags and the legacy manylinux2014/
# 2010/1 ones, not PEP 600's manylinux_2_X): pass every manylinux tag the target's glibc takes.
PLATFORM_ARGS=()
while read -r tag; do PLATFORM_ARGS+=(--platform "$tag"); done < <("$PY" - "$PLATFORM" <<'PYEOF'
import re, sys
tag = sys.argv[1]
legacy = {"manylinux2014": 17, "manylinux2010": 12, "manylinux1": 5}
m = re.fullmatch(r"manylinux_2_(\d+)_(\w+)", tag) or re.fullmatch(r"(manylinux2014|manylinux2010|manylinux1)_(\w+)", tag)
if not m:
    print(tag)
    sys.exit()
arch = m[2]
top = legacy.get(m[1]) or int(m[1])
alias = {v: k for k, v in legacy.items()}
for minor in range(top, 4, -1):
    print(f"manylinux_2_{minor}_{arch}")
    if minor in alias:
        print(f"{alias[minor]}_{arch}")
PYEOF
)

EXTRA_LIST=()
if [[ -n "$EXTRAS" ]]; then
    IFS=, read -r -a _wanted <<<"$EXTRAS"
    for e in "${_wanted[@]}"; do
        e=${e// /}
        [[ -n "$e" ]] || continue
        if [[ ",$EXTRAS_KNOWN," != *",$e,"* ]]; then
            hint=""
            [[ "$e" == docling || "$e" == docx || "$e" == torch ]] && hint=" (docling and CPU torch are core dependencies today: always in the kit)"
            bad_args "unknown extra '$e'$hint; pyproject.toml's extras: $EXTRAS_KNOWN"
        fi
        EXTRA_LIST+=("$e")
    done
fi
EXTRAS_NORM=$(printf '%s\n' "${EXTRA_LIST[@]+"${EXTRA_LIST[@]}"}" | sed '/^$/d' | sort -u | paste -sd, -)

if [[ -e "$OUT" ]]; then
    [[ -d "$OUT" ]] || bad_args "--out $OUT exists and is not a folder"
    if [[ -n "$(ls -A "$OUT")" ]]; then
        [[ $FORCE == 1 && -f "$OUT/MANIFEST" ]] || bad_args "--out $OUT is not empty (--force replaces a previous kit, one holding a MANIFEST)"
        find "$OUT" -mindepth 1 -maxdepth 1 \( -name '*.whl' -o -name MANIFEST -o -name requirements.txt -o -name KIT-INFO \) -delete
        [[ -z "$(ls -A "$OUT")" ]] || die "--out $OUT holds files that are not a kit's: not touching them"
    fi
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# CPU torch: on Linux and Windows the CPU wheels carry a +cpu label (PyPI's are CUDA builds,
# several GB with their nvidia-* wheels); on macOS PyPI's wheel is the CPU build.
case "$PLATFORM" in
    macosx*) CPU_LABEL="" ;;
    *) CPU_LABEL="+cpu" ;;
esac

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

PIP_SOURCE_ARGS=()
if [[ $FROM_CACHE == 1 ]]; then
    PIP_SOURCE_ARGS+=(--no-index)
fi
for d in "${FIND_LINKS[@]+"${FIND_LINKS[@]}"}"; do
    [[ -d "$d" ]] || bad_args "--find-links $d: no such folder"
    PIP_SOURCE_ARGS+=(--find-links "$(cd "$d" && pwd)")
done
for u in "${EXTRA_INDEX[@]+"${EXTRA_INDEX[@]}"}"; do
    PIP_SOURCE_ARGS+=(--extra-index-url "$u")
done

# pip's own failure, classified: 3 when a wheel could not be had, 1 otherwise.
run_pip() {
    local log=$WORK/pip.log
    local st
    set +e
    "$PY" -m pip "$@" 2>&1 | tee "$log" | grep -vE '^WARNING: Location .* is ignored: it is neither a file nor a directory|^\s*(Saved|File was already downloaded|Obtaining|Collecting|Processing|Using cached|Downloading|Looking in)' >&2
    st=("${PIPESTATUS[@]}")
    set -e
    local rc=${st[0]}
    if [[ $rc != 0 ]]; then
        if grep -qiE 'No matching distribution|Could not find a version|Could not fetch URL|NewConnectionError|Max retries exceeded|Temporary failure in name resolution|Network is unreachable|HTTPSConnectionPool|No such file or directory: .*\.whl' "$log"; then
            echo "offline-kit: a needed wheel could not be had (see pip's message above)" >&2
            exit 3
        fi
        # With a constraints file, pip words "no such wheel" as a conflict between the request and
        # the constraint: a "conflict" made only of "The user requested ..." lines is a missing wheel.
        local causes
        causes=$(sed -n '/The conflict is caused by:/,/^$/p' "$log" | sed '1d;/^[[:space:]]*$/d')
        if [[ -n "$causes" ]] && ! grep -qv 'The user requested' <<<"$causes"; then
            echo "offline-kit: a needed wheel could not be had: $(head -1 <<<"$causes" | sed 's/^ *//')" >&2
            exit 3
        fi
        die "pip $1 failed (exit $rc)"
    fi
}

# 1. ClinParser's own wheel, from a clean copy of the work tree (the build leaves no build/
#    or egg-info in the repo). SOURCE_DATE_EPOCH makes the wheel's zip timestamps repeatable.
echo "offline-kit: building ClinParser's wheel from $REPO" >&2
mkdir -p "$WORK/src" "$WORK/dist"
if git -C "$REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$REPO" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
        [[ -e "$f" ]] && printf '%s\0' "$f"; done | tar --null -T - -cf -) | tar -xf - -C "$WORK/src"
    : "${SOURCE_DATE_EPOCH:=$(git -C "$REPO" log -1 --format=%ct 2>/dev/null || echo 315532800)}"
else
    (cd "$REPO" && tar --exclude=.git --exclude='*.egg-info' --exclude=build --exclude=dist -cf - .) | tar -xf - -C "$WORK/src"
    : "${SOURCE_DATE_EPOCH:=315532800}"
fi
export SOURCE_DATE_EPOCH
BUILD_ARGS=(wheel --no-deps --wheel-dir "$WORK/dist")
if "$PY" -c 'import sys, setuptools; sys.exit(int(setuptools.__version__.split(".")[0]) < 70)' 2>/dev/null; then
    BUILD_ARGS+=(--no-build-isolation)   # the running python's setuptools builds it: no index needed
else
    BUILD_ARGS+=("${PIP_SOURCE_ARGS[@]+"${PIP_SOURCE_ARGS[@]}"}")
fi
run_pip "${BUILD_ARGS[@]}" "$WORK/src"
OWN=$(ls "$WORK"/dist/clinparser-*.whl 2>/dev/null | head -1)
[[ -n "$OWN" ]] || die "building ClinParser's wheel gave no clinparser-*.whl"
OWN_SPEC="clinparser${EXTRAS_NORM:+[$EXTRAS_NORM]} @ file://$OWN"

# 2. Everything it needs, as wheels for the target (never an sdist: the target can't build).
echo "offline-kit: downloading wheels for Python $PYVER on $PLATFORM${EXTRAS_NORM:+, extras $EXTRAS_NORM}" >&2
run_pip download --dest "$OUT" --only-binary=:all: \
    "${PLATFORM_ARGS[@]}" --python-version "$PYVER" --implementation cp \
    "${PIP_SOURCE_ARGS[@]+"${PIP_SOURCE_ARGS[@]}"}" \
    "$OWN_SPEC" "torch==$TORCH_VERSION" "torchvision==$TORCHVISION_VERSION"

# 3. Check torch is the CPU build.
shopt -s nullglob
torch_whl=("$OUT"/torch-*.whl)
[[ ${#torch_whl[@]} == 1 ]] || die "expected one torch wheel in the kit, found ${#torch_whl[@]}"
nvidia=("$OUT"/nvidia_*.whl "$OUT"/nvidia-*.whl "$OUT"/triton-*.whl)
if [[ ${#nvidia[@]} -gt 0 || ( -n "$CPU_LABEL" && "$(basename "${torch_whl[0]}")" != *"+cpu"* ) ]]; then
    die "the kit got a CUDA build of torch ($(basename "${torch_whl[0]}")${nvidia[0]:+, $(basename "${nvidia[0]}") …}): give pip a CPU build, e.g. --extra-index-url https://download.pytorch.org/whl/cpu"
fi
tv_whl=("$OUT"/torchvision-*.whl)
if [[ -n "$CPU_LABEL" && ${#tv_whl[@]} == 1 && "$(basename "${tv_whl[0]}")" != *"+cpu"* ]]; then
    echo "offline-kit: WARNING: $(basename "${tv_whl[0]}") is not the CPU build: beside CPU torch it fails to import" \
         "('operator torchvision::nms does not exist'). Only --engine docling's PDF table model imports it;" \
         "PDFs with the default engine and DOCX files don't. For a working one, build with" \
         "--extra-index-url https://download.pytorch.org/whl/cpu" >&2
fi

# 4. requirements.txt (pinned, hashed), MANIFEST (sha256sum format), KIT-INFO: sorted, no dates.
"$PY" - "$OUT" "$PYVER" "$PLATFORM" "$EXTRAS_NORM" <<'EOF'
import hashlib, os, re, sys
out, pyver, platform, extras = sys.argv[1:5]
rows = []
for name in sorted(os.listdir(out)):
    if not name.endswith(".whl"):
        continue
    with open(os.path.join(out, name), "rb") as f:
        digest = hashlib.file_digest(f, "sha256").hexdigest() if hasattr(hashlib, "file_digest") else hashlib.sha256(f.read()).hexdigest()
    dist, version = name[:-4].split("-")[:2]
    rows.append((re.sub(r"[-_.]+", "-", dist).lower(), version, name, digest, os.path.getsize(os.path.join(out, name))))
rows.sort()
with open(os.path.join(out, "requirements.txt"), "w") as f:
    f.write("# Every wheel in this kit. Install: pip install --no-index --find-links . --require-hashes -r requirements.txt\n")
    for dist, version, name, digest, size in rows:
        f.write(f"{dist}=={version} --hash=sha256:{digest}\n")
with open(os.path.join(out, "MANIFEST"), "w") as f:
    for dist, version, name, digest, size in sorted(rows, key=lambda r: r[2]):
        f.write(f"{digest}  {name}\n")
total = sum(r[4] for r in rows)
own = next((r for r in rows if r[0] == "clinparser"), None)
with open(os.path.join(out, "KIT-INFO"), "w") as f:
    f.write(f"clinparser {own[1] if own else '?'}\npython {pyver}\nplatform {platform}\nextras {extras or '-'}\n")
    f.write(f"wheels {len(rows)}\nbytes {total}\n")
print(f"offline-kit: {len(rows)} wheels, {total / 1e6:.1f} MB ({total / 2**20:.1f} MiB) in {out}")
EOF
echo "offline-kit: install on the offline machine with: pip install --no-index --find-links $OUT clinparser${EXTRAS_NORM:+[$EXTRAS_NORM]}" >&2
du -sh "$OUT"
