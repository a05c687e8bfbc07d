# What the scripts of share/bench share; sourced (". common.sh"), never run. After it:
#   here, root        share/bench and the repository, absolute
#   quick             1 when QUICK or BENCH_QUICK asks for the quick mode (make bench QUICK=1), empty otherwise
#   results           where results go: BENCH_RESULTS if set, else share/bench/results, in the quick mode results/quick/
#                     (git ignores it: a quick run never replaces the results of a full one)
#   rel PATH          PATH relative to the repository: what the results record (no paths of one machine in them)
#   machine           one line: host, nproc, CPU, MPI
#   mpi_flags RANKS   sets the array mpiflags: OpenMPI pins one rank per core while there are cores, oversubscribes beyond
#   plot KIND CSV PNG [EXTRA]   share/bench/plot.py with a python3 that has matplotlib, or a line saying there is no plot
#   need_program USAGE ARGS...  exits with USAGE unless the first of ARGS is an executable (a built benchmark program)
#   outputs NAME      sets out, csv and png: results/NAME.txt, .csv, .png
#   options "NAME..." ARGS...   sets the variable NAME from each "-NAME VALUE" of ARGS; any other argument is an error
# and OpenMPI runs as root (it refuses to without the two variables below).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
case ${QUICK:-${BENCH_QUICK:-0}} in 0 | "" | no | false) quick= ;; *) quick=1 ;; esac
results=${BENCH_RESULTS:-$here/results${quick:+/quick}}
mkdir -p "$results"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

rel() { realpath -m --relative-to="$root" "$1"; }

machine() {
  local cpu mpi
  cpu=$(lscpu 2> /dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
  mpi=$(mpiexec --version 2>&1 | head -n 1)
  echo "host $(hostname); nproc $(nproc); CPU ${cpu:-unknown}; MPI: ${mpi:-unknown}"
}

mpi_flags() {
  mpiflags=()
  if mpiexec --version 2>&1 | grep -q -E 'Open MPI|OpenRTE'; then
    if [ "$1" -le "$(nproc)" ]; then mpiflags=(--bind-to core); else mpiflags=(--oversubscribe --bind-to none); fi
  fi
}

plot() {
  local py
  for py in python3 /usr/bin/python3 ""; do # the first python3 on PATH may be another one than the system's (pyenv)
    if [ -n "$py" ] && command -v "$py" > /dev/null && "$py" -c 'import matplotlib' 2> /dev/null; then break; fi
  done
  if [ -n "$py" ]; then
    "$py" "$here/plot.py" "$@" && echo "plot: $(rel "$3")"
  else
    echo "(no python3 with matplotlib: no plot; the numbers are in $(rel "$2"))"
  fi
}

need_program() {
  if [ $# -lt 2 ] || [ ! -x "$2" ]; then
    echo "usage: $0 $1" >&2
    exit 1
  fi
}

outputs() {
  out=$results/$1.txt
  csv=$results/$1.csv
  png=$results/$1.png
}

options() {
  local names=" $1 "
  shift
  while [ $# -gt 0 ]; do
    case $names in
      *" ${1#-} "*)
        if [ $# -lt 2 ]; then echo "$0: $1 needs a value" >&2; exit 2; fi
        printf -v "${1#-}" '%s' "$2"
        shift 2 ;;
      *) echo "$0: unknown option $1" >&2; exit 2 ;;
    esac
  done
}
