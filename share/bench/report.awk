# The numbers of a bottom-solve report (PCMGBottomReportView(), src/pc/mgbottom/mgbottom.c) in a program's output, for
# the scripts of share/bench and share/run.sh: awk -f report.awk -f <(echo 'END { ... }') OUTPUT sets
#   v (PCMG cycles, from ex1's "V-cycles:" line), its (bottom iterations), red and halo (global reductions and halo
#   messages received in the bottom solves), mgred and mghalo (the same in the whole PCMG), tb and tmg (seconds in the
#   bottom solves and in PCMG)
/^V-cycles:/          { v = $2 }
/bottom iterations:/  { its = $3 }
/global reductions in bottom solves:/ {
  red = $6
  if (match($0, /halo messages received: [0-9]+/)) { halo = substr($0, RSTART, RLENGTH); sub(/.* /, "", halo) }
}
/global reductions in PCMG:/ {
  mgred = $5; sub(/,$/, "", mgred)
  if (match($0, /halo messages received in PCMG: [0-9]+/)) { mghalo = substr($0, RSTART, RLENGTH); sub(/.* /, "", mghalo) }
}
/time in bottom solves:/ { tb = $5; tmg = $8 }
