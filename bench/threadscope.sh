#!/usr/bin/env bash
# ThreadScope's load time and peak memory on one log, for the table of
# bench/README.md beside evtool view's (bench/view.py).
#
#   bash bench/threadscope.sh LOG [LIMIT_S]        (LIMIT_S default 240)
#
# Runs Debian's threadscope on LOG under Xvfb and samples its CPU time and
# memory every 0.2 s: the load is done when its CPU time has not grown for
# 2 s (it then only waits for input); prints the wall time to that point
# (minus the 2 s) and the peak resident memory (VmHWM), or says it had not
# finished within LIMIT_S. Needs threadscope and xvfb (apt-get install
# threadscope xvfb).
set -euo pipefail
log=$1 limit=${2:-240}
command -v threadscope >/dev/null || { echo "no threadscope (apt-get install threadscope)"; exit 77; }
command -v Xvfb >/dev/null || { echo "no Xvfb (apt-get install xvfb)"; exit 77; }
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; [[ -n "${ts:-}" ]] && kill $ts 2>/dev/null || true' EXIT
sleep 1
start=$(date +%s.%N)
DISPLAY=$display threadscope "$log" >/dev/null 2>&1 &
ts=$!
last_cpu=-1 still=0 done_at=""
while kill -0 $ts 2>/dev/null; do
  now=$(date +%s.%N)
  read -r utime stime < <(awk '{print $14, $15}' /proc/$ts/stat)
  cpu=$((utime + stime))
  if [[ $cpu == "$last_cpu" ]]; then still=$((still + 1)); else still=0; fi
  last_cpu=$cpu
  if (( still >= 10 )); then done_at=$now; break; fi
  if awk -v n="$now" -v s="$start" -v l="$limit" 'BEGIN{exit !(n - s > l)}'; then break; fi
  sleep 0.2
done
hwm=$(awk '/VmHWM/{print $2}' /proc/$ts/status 2>/dev/null || echo 0)
size=$(stat -c %s "$log")
if [[ -n "$done_at" ]]; then
  awk -v d="$done_at" -v s="$start" -v h="$hwm" -v z="$size" 'BEGIN{
    printf "threadscope: %.0f MB log loaded in %.1f s, peak %.0f MB (%.1f bytes per byte of log)\n",
      z/1e6, d-s-2, h/1024, h*1024/z}'
else
  awk -v l="$limit" -v h="$hwm" -v z="$size" 'BEGIN{
    printf "threadscope: %.0f MB log not loaded after %d s, %.0f MB so far (%.1f bytes per byte of log)\n",
      z/1e6, l, h/1024, h*1024/z}'
fi
