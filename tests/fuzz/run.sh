#!/usr/bin/env bash
# Runs every libFuzzer target built in BUILD_DIR for SECONDS each, starting
# from the seed corpus in tests/fuzz/corpus/<target>. New inputs and any
# crash go to a scratch directory (printed; kept only when a target fails),
# never into the repository.
# Exits non-zero on the first target that finds a crash, leak or timeout.
#   bash tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
set -euo pipefail
build=$1
seconds=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(rle cells life105 life106 macrocell gzip detect rule)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gol-fuzz-XXXXXX")
echo "fuzzing ${targets[*]} for ${seconds} s each; new inputs and crashes in $scratch"
for target in "${targets[@]}"; do
  mkdir -p "$scratch/$target"
  # -rss_limit_mb: far above the 16 MiB budget the targets set, so only a
  # reader that allocates around the budget trips it. -timeout: one input.
  if ! "$build/tests/fuzz/${target}_fuzz" -max_total_time="$seconds" -rss_limit_mb=1024 \
      -timeout=10 -print_final_stats=1 -artifact_prefix="$scratch/$target-" \
      "$scratch/$target" "$root/tests/fuzz/corpus/$target" > "$scratch/$target.log" 2>&1; then
    tail -n 60 "$scratch/$target.log"
    echo "fuzz target $target failed; its input is in $scratch" >&2
    exit 1
  fi
  grep -E "^Done|stat::number_of_executed_units" "$scratch/$target.log" | head -1 |
    sed "s/^/$target: /"
done
rm -rf "$scratch"
