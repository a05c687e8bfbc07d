#!/usr/bin/env bash
# Makes sure what cakrylov needs is installed: a PETSc (yours via PETSC_DIR/PETSC_ARCH, or Debian's
# petsc-dev with its petsc4py and OpenBLAS), OpenMPI, hypre, parallel HDF5 tools, matplotlib and valgrind. Idempotent: prints one
# line when everything is present. Installs missing Debian packages with apt-get when it can.
set -eu

DEBIAN_PETSC=/usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real
PACKAGES="petsc-dev libpetsc3.18-dev-examples python3-petsc4py-real3.18 libopenblas0-pthread libhypre-dev libhdf5-openmpi-dev hdf5-tools openmpi-bin python3-matplotlib valgrind"
petsc_dir=${PETSC_DIR:-$DEBIAN_PETSC}
petsc_arch=${PETSC_ARCH:-}

petsc_ok() { [ -f "$petsc_dir/lib/petsc/conf/variables" ] && [ -f "$petsc_dir/$petsc_arch/include/petscconf.h" -o -f "$petsc_dir/include/petscconf.h" ]; }
tools_missing() {
  command -v mpiexec >/dev/null 2>&1 || echo openmpi-bin
  command -v h5dump >/dev/null 2>&1 || echo hdf5-tools
  command -v valgrind >/dev/null 2>&1 || echo valgrind
  { python3 -c 'import matplotlib' || /usr/bin/python3 -c 'import matplotlib'; } >/dev/null 2>&1 || echo python3-matplotlib
}

missing=$(tools_missing | tr '\n' ' ')
if [ -z "${PETSC_DIR:-}" ]; then
  for p in $PACKAGES; do dpkg -s "$p" >/dev/null 2>&1 || case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac; done 2>/dev/null
  command -v dpkg >/dev/null 2>&1 || petsc_ok || missing="$missing petsc-dev"
fi
missing=$(echo $missing)

if [ -n "$missing" ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "cakrylov setup: installing $missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
  else
    echo "cakrylov setup: missing: $missing" >&2
    echo "  install them (Debian/Ubuntu: sudo apt-get install $missing)," >&2
    echo "  or point PETSC_DIR (and PETSC_ARCH) at a PETSc >= 3.18 built with MPI, hypre and HDF5." >&2
    exit 1
  fi
fi

if ! petsc_ok; then
  echo "cakrylov setup: no PETSc at PETSC_DIR=$petsc_dir${petsc_arch:+ PETSC_ARCH=$petsc_arch}" >&2
  echo "  set PETSC_DIR (and PETSC_ARCH) to your PETSc, or unset PETSC_DIR to use Debian's petsc-dev ($DEBIAN_PETSC)." >&2
  exit 1
fi
version=$(sed -n 's/^#define PETSC_VERSION_\(MAJOR\|MINOR\|SUBMINOR\) *\([0-9]*\)/\2/p' "$petsc_dir/include/petscversion.h" | paste -sd.)
echo "cakrylov setup: PETSc $version at $petsc_dir${petsc_arch:+ ($petsc_arch)}, MPI, HDF5 tools, matplotlib and valgrind present"
