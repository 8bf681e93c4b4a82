# Sourced by the device scripts from exp8 on: unpack the carried instances, run a labelled configuration.
# Needs REV, B (the kcp binary of revision REV) and OUT; results go to $OUT/b.
mkdir -p "$OUT/b" /tmp/inst
for f in gpu-bench/*.fzn.gz; do gunzip -c "$f" > "/tmp/inst/$(basename "$f" .gz)"; done
ls /tmp/inst/*.fzn | sort > /tmp/all.txt
# configuration LABEL SPACE TIMEOUT "INSTANCE PREFIXES" [kcp arguments...]
configuration() {
  local label=$1 space=$2 timeout=$3 only=$4; shift 4
  # shellcheck disable=SC2086
  python3 perf/bench/run.py --kcp "$B" --space "$space" --timeout "$timeout" --grace 10 --instances /tmp/inst \
    --only $only --revision "$REV" --label "$label" --machine nvidia-h100 --out "$OUT/b/$label.csv" -- "$@" 2>&1 | tail -1
}
