#!/usr/bin/env bash
# Question: how many instructions per byte does each link job cost, steady
# state, on each corpus page — and how many does `docbase check` spend on a
# site, and `install` + 16,384 `a.href` reads? A table of instruction counts
# (../shared/tools/icount, valgrind), which move about 1% between runs on a
# loaded machine where times move 20%: the figure to compare two builds by.
#
#   bench/icount.sh [--runs N] [--jobs extract,rewrite,stream,parse5 (or "" for none)] [--pages new-zealand,2015,2009,911] [--no-check] [--no-href]
#
# Per page and job: (count of 5 rounds − count of 1 round) / (4 × bytes),
# i.e. the start-up and the first, cold round left out. `check`: the built
# command (`dist/cli/main.js check SITE --jobs 1`, fragments checked) on
# bench/check-site.ts's site of one copy of each page (about 8.4 MB; made
# by `check-site.ts --quick` when missing), minus a run of `--version`, per
# byte. `href`: one round (the window made, docbase installed, every href
# read once) minus start-up, and per later round of 16,384 reads (65 rounds minus 1, / 64).
# Run it in the checkout to measure; it needs valgrind and ../shared/tools/icount.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=1
jobs=extract,rewrite,stream,parse5
pages=new-zealand,2015,2009,911
check=1
href=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --pages) pages=$2; shift 2 ;;
    --no-check) check=0; shift ;;
    --no-href) href=0; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
icount=${ICOUNT:-../shared/tools/icount}
corpus=${DOCBASE_CORPUS:-../shared/corpus}
node=node_modules/.bin/node
count() { "$icount" --runs "$runs" -- "$node" --single-threaded "$@" | sed -n 's/^median \([0-9]*\).*/\1/p'; }
bytes_of() { local f; f=$(ls "$corpus" | grep '^html-' | grep -- "$1" | head -n 1); zcat "$corpus/$f" | wc -c; }

echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' (with uncommitted changes)'), $(date -u +%Y-%m-%dT%H:%MZ), icount runs: $runs"
printf '%-10s %-12s %14s %14s %10s\n' job page "1 round" "5 rounds" "instr/byte"
for job in ${jobs//,/ }; do
  for page in ${pages//,/ }; do
    one=$(count bench/icount-workload.ts "$job" "$page" 1)
    five=$(count bench/icount-workload.ts "$job" "$page" 5)
    b=$(bytes_of "$page")
    printf '%-10s %-12s %14s %14s %10.1f\n' "$job" "$page" "$one" "$five" "$(echo "($five - $one) / (4 * $b)" | bc -l)"
  done
done

if [ "$check" = 1 ]; then
  site="${TMPDIR:-/tmp}/docbase-bench-check-site-v1-1"
  [ -e "$site/.complete" ] || "$node" bench/check-site.ts --quick --no-linkinator >/dev/null
  npx --no-install tsc -p tsconfig.build.json
  b=$(find "$site" -name '*.html' -print0 | du -cb --files0-from=- | tail -n 1 | cut -f1)
  base=$(count dist/cli/main.js --version)
  full=$(count dist/cli/main.js check "$site" --url http://localhost/ --jobs 1)
  printf '%-10s %-12s %14s %14s %10.1f\n' check site-1-copy "$base" "$full" "$(echo "($full - $base) / $b" | bc -l)"
fi

if [ "$href" = 1 ]; then
  none=$(count bench/icount-workload.ts none x 1)
  one=$(count bench/icount-workload.ts href x 1)
  # 64 later rounds: a round of cached reads (~20M) is below what a run's start-up moves between runs.
  many=$(count bench/icount-workload.ts href x 65)
  printf '%-10s %-12s %14s %14s %10s\n' href 16384-a "$((one - none))" "$(((many - one) / 64))" "(install+parse+reads, per later round)"
fi
