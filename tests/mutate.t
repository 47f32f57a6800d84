#!/bin/sh
# mutate.t: a short, fixed run of scripts/mutate-campaign (issue 11):
# each tool's real inputs with one value wrong must give no sanitizer
# report (under the sanitized build), no hang and only the exit statuses
# its man page lists.  The long run is `scripts/mutate-campaign`.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
"$top/scripts/mutate-campaign" --bin "$UPKIT_BIN" --per-tool 3 \
    --max-seeds 3 --seed 11 --timeout 10 --tap
