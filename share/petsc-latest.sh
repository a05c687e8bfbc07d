#!/usr/bin/env bash
# Builds the newest PETSc release the project is tested against (and the petsc4py of the same release)
# once, from PyPI's source distribution, into a cache outside the repository, and prints its PETSC_DIR
# on the last line. Reuses the build when it is there. `make test-petsc-latest` calls it.
#
#   share/petsc-latest.sh            build (about 15 minutes on 2 cores) or reuse; print PETSC_DIR
#   CAKRYLOV_CACHE=dir               where to keep it (default ~/.cache/cakrylov)
#
# The build: --with-fc=0 --with-debugging=0, Debian's OpenMPI, BLAS/LAPACK and parallel HDF5, petsc4py
# (into PETSC_DIR/lib, for PYTHONPATH); no hypre (tests that need it say `requires: hypre`).
set -euo pipefail

version=3.26.1
cache=${CAKRYLOV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cakrylov}
prefix=$cache/petsc-$version
stamp=$prefix/.cakrylov-complete
log=$cache/petsc-$version-build.log

if [ -f "$stamp" ]; then
  echo "$prefix"
  exit 0
fi

mkdir -p "$cache"
echo "petsc-latest: building PETSc $version into $prefix (log: $log)" >&2
# A Python of its own for the build: PETSc's configure runs under it and builds petsc4py with its Cython and NumPy.
venv=$cache/python-$version
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" 2>/dev/null || {
    command -v apt-get >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  }
fi
"$venv/bin/pip" install -q --upgrade setuptools wheel cython numpy >>"$log" 2>&1

src=$cache/src
rm -rf "$src" && mkdir -p "$src"
"$venv/bin/pip" download -q --no-deps --no-binary :all: --no-build-isolation -d "$src" "petsc==$version" >>"$log" 2>&1
tar -xzf "$src/petsc-$version.tar.gz" -C "$src"

hdf5_inc=/usr/include/hdf5/openmpi
hdf5_lib=/usr/lib/x86_64-linux-gnu/hdf5/openmpi
hdf5=()
if [ -f "$hdf5_inc/hdf5.h" ]; then hdf5=(--with-hdf5-include="$hdf5_inc" --with-hdf5-lib="-L$hdf5_lib -lhdf5_hl -lhdf5"); fi

cd "$src/petsc-$version"
rm -rf "$prefix"
unset PETSC_DIR PETSC_ARCH
{
  "$venv/bin/python" ./configure --prefix="$prefix" PETSC_ARCH=arch-cakrylov --with-fc=0 --with-debugging=0 \
    --with-cc=mpicc --with-cxx=mpicxx --with-shared-libraries=1 --with-petsc4py=1 "${hdf5[@]}"
  make PETSC_DIR="$PWD" PETSC_ARCH=arch-cakrylov all
  make PETSC_DIR="$PWD" PETSC_ARCH=arch-cakrylov install
} >>"$log" 2>&1 || { echo "petsc-latest: the build failed; the end of $log:" >&2; tail -n 30 "$log" >&2; exit 1; }
rm -rf "$src"
touch "$stamp"
echo "$prefix"
