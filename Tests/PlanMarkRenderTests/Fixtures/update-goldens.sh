#!/usr/bin/env bash
# Regenerates the review golden images in Fixtures/golden/review. The test run itself never writes
# them: this script runs the golden tests with PLANMARK_GOLDEN_OUTPUT pointing at a scratch folder
# (each test writes what it rendered there), then copies those images over the goldens. Look at every
# changed image before committing it; `git diff --stat` below lists them.
#
#   Tests/PlanMarkRenderTests/Fixtures/update-goldens.sh [extra `swift build` / `swift test` options]
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
goldens="$root/Tests/PlanMarkRenderTests/Fixtures/golden/review"
cd "$root"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/planmark-goldens.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

swift build --build-tests "$@"
# The tests fail where the new images differ from the old goldens; that is expected here.
PLANMARK_GOLDEN_OUTPUT="$scratch" swift test --skip-build --filter 'PlanMarkRenderTests.ReviewGoldenTests' "$@" || true

shopt -s nullglob
images=("$scratch"/*.png)
if [ ${#images[@]} -eq 0 ]; then
    echo "update-goldens: the golden tests wrote no images (did they run?); nothing changed" >&2
    exit 1
fi
mkdir -p "$goldens"
for image in "${images[@]}"; do
    cp "$image" "$goldens/"
    echo "wrote ${goldens#"$root"/}/$(basename "$image")"
done
git -C "$root" status --short -- "$goldens"
echo "Look at each changed image before committing it."
