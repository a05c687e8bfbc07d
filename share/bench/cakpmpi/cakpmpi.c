/*
   cakpmpi: an MPI profiling-interface (PMPI) library that counts communication exactly and, optionally, simulates the
   latency of global reductions on a large machine. Preload it into any MPI program (no recompilation, no PETSc):

     make pmpi                                    # builds build/bench/libcakpmpi.so with PETSc's mpicc
     mpiexec -n 2 -x LD_PRELOAD=$PWD/build/bench/libcakpmpi.so ./app ...     (or: mpiexec -n 2 env LD_PRELOAD=... ./app)
     CAKPMPI_MODEL=help mpiexec -n 1 -x LD_PRELOAD=... ./app                  prints this documentation, in short

   It defines MPI_Allreduce, MPI_Iallreduce, ... and calls PMPI_Allreduce, ... (the MPI standard's profiling
   interface). A program that defines one of these functions itself (tests/ex2.c and tests/mgbottom.c of cakrylov do, for
   their own counters) keeps its own: the executable's definition wins over a preloaded one, and those calls are then
   not seen here. C bindings only; not thread-safe (MPI_THREAD_MULTIPLE programs get wrong counts).

   1. COUNTING (always on while preloaded)
   Per rank, from MPI_Init to MPI_Finalize, while counting is on:
     allreduce, allreduce_bytes     MPI_Allreduce calls and bytes (count x type size) on communicators of > 1 rank
     iallreduce, iallreduce_bytes   MPI_Iallreduce, the same
     reductions                     allreduce + iallreduce: the global reductions, counted as PETSc's -log_view counts
                                    MPI_Allreduce (PetscMPIParallelComm: communicators of one rank are not counted)
     reduce(_bytes), bcast(_bytes), barrier, allgather (+v), alltoall (+v, w), gather (+v), scatter (+v),
     reduce_scatter (+block), scan (+exscan), neighbor (neighbor_allgather, neighbor_alltoallv), icoll (every other
     non-blocking collective: Ibarrier, Ibcast, Ireduce, Iallgather(v), Ialltoall(v), Igather(v), Iscatter(v),
     Ireduce_scatter_block, Iscan, Iexscan, Ineighbor_alltoallv)       collectives on communicators of > 1 rank
     p2p_send, p2p_send_bytes       messages sent: MPI_Send/Ssend/Rsend/Bsend, their I-forms, the send half of
                                    MPI_Sendrecv(_replace), and every MPI_Start/MPI_Startall of a persistent send
                                    (MPI_Send_init, Ssend_init, Bsend_init, Rsend_init: PETSc's VecScatter/PetscSF)
     p2p_recv, p2p_recv_bytes       messages received: MPI_Recv, MPI_Irecv, the receive half of MPI_Sendrecv(_replace),
                                    starts of persistent receives (MPI_Recv_init); bytes = the posted buffer (an upper
                                    bound of the message). Messages to or from MPI_PROC_NULL are not counted.
     p2p_starts                     the persistent starts among p2p_send + p2p_recv
     test                           calls of MPI_Test, Testall, Testany, Testsome, Request_get_status
     wait                           calls of MPI_Wait, Waitall, Waitany, Waitsome
     elapsed_s                      wall time from MPI_Init to MPI_Finalize (counting paused or not)
   Counting window: MPI_Pcontrol(0) pauses counting, MPI_Pcontrol(1) (any level != 0) resumes it: MPI_Pcontrol is the
   standard's hook for exactly this, and a no-op without the library. CAKPMPI_PAUSED=1 starts paused, so that only the
   regions a program brackets with MPI_Pcontrol(1) ... MPI_Pcontrol(0) count. The simulator below is not paused.
   At MPI_Finalize rank 0 gathers the counters (uncounted PMPI calls) and writes one line per rank and a totals line
   (sum and max over the ranks of every field), key=value separated by spaces:
     cakpmpi rank=0 ranks=2 elapsed_s=0.0123 allreduce=12 allreduce_bytes=96 iallreduce=0 ... sim_delay_s=0
     cakpmpi total ranks=2 model=none ... allreduce_sum=24 allreduce_max=12 ...
   to stderr, or appended to the file CAKPMPI_OUTPUT; a "%r" in that name is replaced by the rank and then every rank
   appends its own line to its own file (rank 0's file also gets the totals line).

   2. LATENCY SIMULATOR (off unless CAKPMPI_MODEL or CAKPMPI_HALO(_US) is set)
   A PLANNING INSTRUMENT, NOT A MACHINE: it adds a modelled latency to the global reductions (and, optionally, to halo
   messages) of a run on a few cores, so that one can study the regime in which a reduction costs what it costs on
   thousands of nodes. It models nothing else of a large machine (no network contention, no noise, no slower memory,
   no load imbalance), and the real cost of the operation on this machine is included (it is small: microseconds).
   Every summary line says "simulated" when it is active.

   Which operations: MPI_Allreduce and MPI_Iallreduce on communicators of more than one rank.
   T_G, the time of one reduction of l bytes (l = count x type size):
     CAKPMPI_MODEL=krasnopolsky   T_G(p, l) = C0 + C1 l^n0 p^n1   (Krasnopolsky 2020, eqs. (10)-(11): l in bytes,
                                  l = 8 m k for k dot products of m right-hand sides; p the number of compute NODES,
                                  the paper's unit; fitted on Lomonosov, 8 MPI ranks per node, up to 192 nodes)
         CAKPMPI_NODES  p         simulated nodes (default 1024)
         CAKPMPI_C0     3.5e-6    seconds        CAKPMPI_C1   1.7e-6   seconds
         CAKPMPI_N0     0.21                     CAKPMPI_N1   0.54        (the paper's Lomonosov constants, eq. (11))
         e.g. p = 1024, l = 8: 114.6 us; p = 64, l = 8: 28.4 us; p = 16384, l = 2048: 1594 us
     CAKPMPI_MODEL=hockney        T_G(P, l) = ceil(log2 P) (t0 + l / r_inf)   (a binary-tree reduction of Hockney
                                  point-to-point stages, t = t0 + l/r_inf: Hu & Emerson 1995 found the T3D's global
                                  sum time linear in log2 of the processor count)
         CAKPMPI_P      P         simulated MPI ranks (default CAKPMPI_NODES x CAKPMPI_RANKS_PER_NODE)
         CAKPMPI_NODES, CAKPMPI_RANKS_PER_NODE   1024 and 1
         CAKPMPI_T0     2e-6      seconds per stage: a small-message point-to-point latency of a current InfiniBand
                                  (EDR/HDR) cluster, 1-1.5 us, plus the reduction's software overhead; Hu 1995
                                  measured t0 = 6 us on the Cray T3D (SHMEM_PUT; PVM: 32 us)
         CAKPMPI_RINF   1e10      bytes/s: r_inf of a 100 Gb/s link (12.5 GB/s raw); Hu 1995, T3D: 1.2e8
         e.g. P = 1024, l = 8: 20.0 us; P = 65536, l = 8192: 45.1 us; the T3D (t0 6e-6, r_inf 1.2e8), P = 256, l = 8: 48.5 us
     CAKPMPI_MODEL=none           no simulation (the default); CAKPMPI_MODEL=help: print this summary and run unsimulated.
   Sub-communicators: a communicator of c of the n real ranks stands for the same fraction of the simulated machine,
   p c/n nodes (P c/n ranks), at least 1: a reduction on half of the ranks is modelled on half of the nodes (PETSc's
   PCTELESCOPE, agglomerated bottom solves). CAKPMPI_COMM_SCALE=0 uses p (P) for every communicator.

   Semantics (wall time, per rank; t_s = the time this rank entered the call):
     blocking MPI_Allreduce       the real PMPI_Allreduce, then a busy wait until t_s + T_G.
     MPI_Iallreduce, CAKPMPI_PROGRESS=async (default)   the reduction completes at t_s + T_G in wall time, whatever the
                                  program does meanwhile: work between MPI_Iallreduce and MPI_Wait really hides it.
                                  MPI_Test (Testall, Testany, Testsome, Request_get_status) reports it complete only when
                                  both the real request is complete and t_s + T_G has passed; MPI_Wait(all, any, some)
                                  busy-waits until then. Only then is the user's request set to MPI_REQUEST_NULL.
     CAKPMPI_PROGRESS=none        no asynchronous progress, as MPI libraries that need manual progression (Krasnopolsky
                                  2020, Appendix C: Intel MPI on Lomonosov): the reduction is R = ceil(log2(ranks))
                                  rounds of T_G/R each (ranks = CAKPMPI_P, or NODES x RANKS_PER_NODE, scaled as above;
                                  CAKPMPI_ROUNDS=R sets it), and a round starts only inside an MPI call on that request:
                                  MPI_Iallreduce starts round 1; an MPI_Test (...) on it starts the next round if the
                                  current one has finished (at most one round per call); MPI_Wait runs the remaining
                                  rounds back to back. Work W without tests then hides only round 1:
                                  T = max(W, T_G/R) + (R-1) T_G/R; tests spaced >= T_G/R apart hide all of it.
     CAKPMPI_PROGRESS=anycall     as none, but every intercepted MPI call (also on other requests, e.g. the MPI_Waitall of
                                  a halo exchange) starts the next round of every outstanding reduction, as a progress
                                  engine does that polls everything in every call (OpenMPI, MPICH without threads).
   Halo messages (optional): CAKPMPI_HALO_US=t   every receive on a communicator of > 1 rank (MPI_Recv, MPI_Irecv,
                                  persistent receives started by MPI_Start(all), the receive of MPI_Sendrecv) completes
                                  no earlier than t microseconds after it was posted (MPI_Test/Wait as above);
                                  CAKPMPI_HALO=krasnopolsky   t = T_L(l) of Krasnopolsky eq. (8), l = the receive buffer
                                  in bytes: 2.4e-6 + 6.9e-8 l^0.56 s (l <= 2048), 3.2e-6 + 2e-9 l s (l > 2048).
                                  Receives are timed from their posting: a late sender is not modelled.
   What is not modelled, besides the above: a rank's reduction completes at ITS OWN start + T_G (after the real
   reduction, which waits for the last rank): the last rank to arrive, the one on the critical path, is modelled exactly;
   ranks that arrived earlier leave up to their lead earlier than on a real machine. Other collectives (MPI_Reduce,
   MPI_Bcast, ...) and sends are not delayed. MPI_Cancel of a simulated request is not supported.
   Summary fields of the simulator: sim_reductions (the reductions it delayed), sim_model_s (the sum of their T_G),
   sim_delay_s (the time it busy-waited inside blocking calls: the part of sim_model_s the program did not hide),
   sim_halo, sim_halo_delay_s (the same for receives). With CAKPMPI_VERBOSE=1 rank 0 prints the model at MPI_Init.

   Validation: make pmpi-check (share/bench/cakpmpi/validate.c, check.sh): exact counts, MPI_Pcontrol, request semantics,
   and measured against modelled times for every model and progress mode (within 1 % on this machine; the check
   allows 5 %). On PETSc: make pmpi-demo (share/bench/pmpi-demo.sh): reductions per iteration of each
   BiCGStab variant against PETSc's own count, and solve times under the simulator.
*/
#include <mpi.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* ---------------------------------------------------------------- counters ---------------------------------------- */
enum {
  F_ALLREDUCE,
  F_ALLREDUCE_BYTES,
  F_IALLREDUCE,
  F_IALLREDUCE_BYTES,
  F_REDUCTIONS,
  F_REDUCE,
  F_REDUCE_BYTES,
  F_BCAST,
  F_BCAST_BYTES,
  F_BARRIER,
  F_ALLGATHER,
  F_ALLTOALL,
  F_GATHER,
  F_SCATTER,
  F_REDUCE_SCATTER,
  F_SCAN,
  F_NEIGHBOR,
  F_ICOLL,
  F_SEND,
  F_SEND_BYTES,
  F_RECV,
  F_RECV_BYTES,
  F_STARTS,
  F_TEST,
  F_WAIT,
  F_SIM_REDUCTIONS,
  F_SIM_MODEL_S,
  F_SIM_DELAY_S,
  F_SIM_HALO,
  F_SIM_HALO_DELAY_S,
  F_ELAPSED_S,
  NFIELDS
};
static const char *const fieldname[NFIELDS] = {"allreduce",   "allreduce_bytes", "iallreduce", "iallreduce_bytes", "reductions", "reduce",   "reduce_bytes",   "bcast",    "bcast_bytes",    "barrier",    "allgather", "alltoall", "gather",
                                               "scatter",     "reduce_scatter",  "scan",       "neighbor",         "icoll",      "p2p_send", "p2p_send_bytes", "p2p_recv", "p2p_recv_bytes", "p2p_starts", "test",      "wait",     "sim_reductions",
                                               "sim_model_s", "sim_delay_s",     "sim_halo",   "sim_halo_delay_s", "elapsed_s"};
static int               isseconds(int f)
{
  return f == F_SIM_MODEL_S || f == F_SIM_DELAY_S || f == F_SIM_HALO_DELAY_S || f == F_ELAPSED_S;
}

static double ctr[NFIELDS]; /* doubles: exact for counts below 2^53, and one PMPI_Gather moves them all */
static int    counting = 1, initialized, world_rank, world_size;
static double t_init;

#define COUNT(f, n) \
  do { \
    if (counting) ctr[f] += (n); \
  } while (0)

static double Bytes(int count, MPI_Datatype type)
{
  int s = 0;

  if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &s) != MPI_SUCCESS) return 0;
  return (double)count * s;
}

static int Parallel(MPI_Comm comm) /* a communicator of more than one rank (intercommunicators: yes) */
{
  int size = 1, inter = 0;

  if (comm == MPI_COMM_NULL) return 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return 1;
  PMPI_Comm_size(comm, &size);
  return size > 1;
}

/* ---------------------------------------------------------------- the model --------------------------------------- */
enum {
  MODEL_NONE,
  MODEL_KRASNOPOLSKY,
  MODEL_HOCKNEY
};
enum {
  PROGRESS_ASYNC,
  PROGRESS_NONE,
  PROGRESS_ANYCALL
};
enum {
  HALO_NONE,
  HALO_CONST,
  HALO_KRASNOPOLSKY
};
static const char *const modelname[]    = {"none", "krasnopolsky", "hockney"};
static const char *const progressname[] = {"async", "none", "anycall"};

static struct {
  int    model, progress, halo, comm_scale, rounds, verbose;
  double nodes, rpn, P, C0, C1, n0, n1, t0, rinf, halo_s;
} cfg;

/* The simulated share of the machine of a communicator: its fraction of the real ranks */
static double Fraction(MPI_Comm comm)
{
  int size = world_size, inter = 0;

  if (!cfg.comm_scale || world_size < 1) return 1.0;
  PMPI_Comm_test_inter(comm, &inter);
  if (!inter) PMPI_Comm_size(comm, &size);
  return (double)size / world_size;
}

static int CeilLog2(double x)
{
  int r = 0;

  while (ldexp(1.0, r) < x - 1e-9) r++;
  return r;
}

static double ModelTime(MPI_Comm comm, double l)
{
  const double f = Fraction(comm);

  if (cfg.model == MODEL_KRASNOPOLSKY) {
    const double p = fmax(1.0, cfg.nodes * f);

    return cfg.C0 + cfg.C1 * (l > 0 ? pow(l, cfg.n0) : 0.0) * pow(p, cfg.n1);
  }
  if (cfg.model == MODEL_HOCKNEY) return CeilLog2(fmax(1.0, cfg.P * f)) * (cfg.t0 + l / cfg.rinf);
  return 0.0;
}

static int Rounds(MPI_Comm comm)
{
  int r;

  if (cfg.rounds > 0) return cfg.rounds;
  r = CeilLog2(fmax(1.0, cfg.P * Fraction(comm)));
  return r < 1 ? 1 : r;
}

static double HaloTime(double l)
{
  if (cfg.halo == HALO_CONST) return cfg.halo_s;
  if (cfg.halo == HALO_KRASNOPOLSKY) return l <= 2048 ? 2.4e-6 + 6.9e-8 * pow(l, 0.56) : 3.2e-6 + 2e-9 * l;
  return 0.0;
}

/* Busy-wait until time t, keeping the MPI library's progress engine running (other ranks may need this rank to move
   their messages, as inside a real MPI_Wait). The waited time goes to counter f. */
static void SpinUntil(double t, int f)
{
  double now = PMPI_Wtime();
  int    flag;

  if (now >= t) return;
  COUNT(f, t - now);
  while (now < t) {
    PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    now = PMPI_Wtime();
  }
}

/* ------------------------------------------------- the simulated requests ----------------------------------------- */
/* A simulated request: the user's handle IS the real request, which is kept alive (tested with
   PMPI_Request_get_status, never freed) until the simulated completion, so that its value cannot be reused by the MPI
   library meanwhile. */
enum {
  SIM_REDUCTION,
  SIM_HALO
};
typedef struct {
  MPI_Request h;
  int         kind, real_done, R, k; /* no progress: R rounds of d seconds; round k (1..R) started at round_start */
  double      t_ready, d, round_start;
} Sim;
static Sim *sims;
static int  nsims, capsims;

static Sim *SimFind(MPI_Request h)
{
  if (h == MPI_REQUEST_NULL) return NULL;
  for (int i = 0; i < nsims; i++)
    if (sims[i].h == h) return &sims[i];
  return NULL;
}

static void SimAdd(MPI_Request h, int kind, double t_start, double T, int R)
{
  Sim *s;

  if (h == MPI_REQUEST_NULL) return;
  if (nsims == capsims) {
    Sim *n = realloc(sims, sizeof(Sim) * (capsims ? 2 * capsims : 16));

    if (!n) return; /* out of memory: the operation is simply not delayed */
    sims    = n;
    capsims = capsims ? 2 * capsims : 16;
  }
  s              = &sims[nsims++];
  s->h           = h;
  s->kind        = kind;
  s->real_done   = 0;
  s->t_ready     = t_start + T;
  s->R           = R < 1 ? 1 : R;
  s->d           = T / s->R;
  s->k           = 1;
  s->round_start = t_start;
}

static void SimRemove(Sim *s)
{
  *s = sims[--nsims];
}

static int Rounded(const Sim *s)
{
  return s->kind == SIM_REDUCTION && cfg.progress != PROGRESS_ASYNC;
}

/* One MPI call on the request at time now: with manual progression it may start the next round */
static void SimAdvance(Sim *s, double now)
{
  if (Rounded(s) && s->k < s->R && now >= s->round_start + s->d) {
    s->k++;
    s->round_start = now;
  }
}

/* Complete in the simulated sense at time now (after SimAdvance)? Also checks the real request, without freeing it. */
static int SimReady(Sim *s, double now)
{
  if (!s->real_done) PMPI_Request_get_status(s->h, &s->real_done, MPI_STATUS_IGNORE);
  if (!s->real_done) return 0;
  if (Rounded(s)) return s->k == s->R && now >= s->round_start + s->d;
  return now >= s->t_ready;
}

static int SimPoll(Sim *s)
{
  const double now = PMPI_Wtime();

  SimAdvance(s, now);
  return SimReady(s, now);
}

/* When a blocking wait entered at time now completes: the remaining rounds run back to back */
static double SimReadyTime(const Sim *s, double now)
{
  double end;

  if (!Rounded(s)) return s->t_ready;
  end = s->round_start + s->d;
  if (s->k == s->R) return end;
  return (now > end ? now : end) + (s->R - s->k) * s->d;
}

/* Complete the simulated request *req (found in the table) at t_ready: real wait, busy wait, then hand the request back
   (MPI_REQUEST_NULL, or the inactive persistent request) and forget it */
static int SimFinish(MPI_Request *req, MPI_Status *status, double t_ready)
{
  Sim *s    = SimFind(*req);
  int  kind = s->kind, rc;

  rc = PMPI_Wait(&s->h, status);                                             /* s->h: now MPI_REQUEST_NULL, or the inactive persistent request */
  SpinUntil(t_ready, kind == SIM_HALO ? F_SIM_HALO_DELAY_S : F_SIM_DELAY_S); /* (does not touch the table) */
  *req = s->h;
  SimRemove(s);
  return rc;
}

/* PROGRESS_ANYCALL: every intercepted call may start the next round of every outstanding reduction */
#define PROGRESS_HOOK() \
  do { \
    if (nsims && cfg.progress == PROGRESS_ANYCALL) { \
      const double now_ = PMPI_Wtime(); \
      for (int i_ = 0; i_ < nsims; i_++) SimAdvance(&sims[i_], now_); \
    } \
  } while (0)

/* Requests of MPI_Start/MPI_Startall: the persistent point-to-point requests, created by MPI_*_init */
typedef struct {
  MPI_Request h;
  int         recv, parallel;
  double      bytes;
} Persistent;
static Persistent *pers;
static int         npers, cappers;

static Persistent *PersFind(MPI_Request h)
{
  if (h == MPI_REQUEST_NULL) return NULL;
  for (int i = npers - 1; i >= 0; i--)
    if (pers[i].h == h) return &pers[i];
  return NULL;
}

static void PersAdd(MPI_Request h, int recv, double bytes, MPI_Comm comm)
{
  if (h == MPI_REQUEST_NULL) return;
  if (npers == cappers) {
    Persistent *n = realloc(pers, sizeof(Persistent) * (cappers ? 2 * cappers : 64));

    if (!n) return;
    pers    = n;
    cappers = cappers ? 2 * cappers : 64;
  }
  pers[npers].h        = h;
  pers[npers].recv     = recv;
  pers[npers].bytes    = bytes;
  pers[npers].parallel = Parallel(comm);
  npers++;
}

/* ---------------------------------------------------------------- set-up and report ------------------------------- */
static const char helptext[] = "\
cakpmpi: MPI profiling-interface library (LD_PRELOAD): exact communication counts per rank and an optional latency\n\
simulator of global reductions. A PLANNING INSTRUMENT, NOT A MACHINE. Full documentation: share/bench/cakpmpi/cakpmpi.c.\n\
Counting (always): MPI_Pcontrol(0) pauses, MPI_Pcontrol(1) resumes; CAKPMPI_PAUSED=1 starts paused.\n\
  CAKPMPI_OUTPUT=file     append the summary to file (\"%r\" -> rank: one file per rank); default stderr\n\
Simulator (MPI_Allreduce, MPI_Iallreduce on communicators of > 1 rank; T_G, l = bytes):\n\
  CAKPMPI_MODEL=krasnopolsky  T_G = C0 + C1 l^n0 p^n1 (Krasnopolsky 2020 eqs. 10-11), p = CAKPMPI_NODES (1024)\n\
      CAKPMPI_C0 (3.5e-6 s), CAKPMPI_C1 (1.7e-6 s), CAKPMPI_N0 (0.21), CAKPMPI_N1 (0.54): Lomonosov's fit\n\
  CAKPMPI_MODEL=hockney       T_G = ceil(log2 P) (t0 + l/r_inf) (Hockney stages of a binary tree, Hu 1995)\n\
      CAKPMPI_P (CAKPMPI_NODES x CAKPMPI_RANKS_PER_NODE = 1024 x 1), CAKPMPI_T0 (2e-6 s), CAKPMPI_RINF (1e10 B/s)\n\
  CAKPMPI_MODEL=none (default) | help (this text)\n\
  CAKPMPI_COMM_SCALE=1        a communicator of c of n ranks is c/n of the simulated machine (0: always all of it)\n\
  CAKPMPI_PROGRESS=async      non-blocking reductions complete at start + T_G in wall time (default)\n\
                  =none       R = ceil(log2 ranks) rounds of T_G/R (CAKPMPI_ROUNDS=R), a round starts only in an MPI\n\
                              call on the request (MPI_Iallreduce: round 1; MPI_Test: the next; MPI_Wait: all the rest)\n\
                  =anycall    as none, but any intercepted MPI call starts the next round of every reduction\n\
  CAKPMPI_HALO_US=t           receives complete no earlier than t us after posting; CAKPMPI_HALO=krasnopolsky: eq. (8)\n\
  CAKPMPI_VERBOSE=1           rank 0 prints the model at MPI_Init\n\
Summary at MPI_Finalize: 'cakpmpi rank=R key=value ...' per rank and 'cakpmpi total ... key_sum= key_max=' (rank 0).\n";

static int EnvDouble(const char *name, double def, double lo, double *v, char *err, size_t errlen)
{
  const char *s = getenv(name);
  char       *end;

  *v = def;
  if (!s || !*s) return 0;
  *v = strtod(s, &end);
  if (*end || !(*v >= lo) || !isfinite(*v)) {
    snprintf(err, errlen, "cakpmpi: bad %s=%s (a number >= %g)", name, s, lo);
    return 1;
  }
  return 0;
}

static int EnvChoice(const char *name, const char *const names[], int n, int def, int *v, char *err, size_t errlen)
{
  const char *s = getenv(name);

  *v = def;
  if (!s || !*s) return 0;
  for (int i = 0; i < n; i++)
    if (!strcmp(s, names[i])) return *v = i, 0;
  snprintf(err, errlen, "cakpmpi: unknown %s=%s", name, s);
  return 1;
}

static void Setup(void)
{
  char        err[256] = "";
  const char *m = getenv("CAKPMPI_MODEL"), *h = getenv("CAKPMPI_HALO");
  int         help = m && !strcmp(m, "help"), bad = 0;
  double      v;

  if (initialized) return;
  initialized = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
  counting = !(getenv("CAKPMPI_PAUSED") && atoi(getenv("CAKPMPI_PAUSED")));
  if (!help) bad |= EnvChoice("CAKPMPI_MODEL", modelname, 3, MODEL_NONE, &cfg.model, err, sizeof(err));
  bad |= EnvChoice("CAKPMPI_PROGRESS", progressname, 3, PROGRESS_ASYNC, &cfg.progress, err, sizeof(err));
  bad |= EnvDouble("CAKPMPI_NODES", 1024, 1, &cfg.nodes, err, sizeof(err));
  bad |= EnvDouble("CAKPMPI_RANKS_PER_NODE", 1, 1, &cfg.rpn, err, sizeof(err));
  bad |= EnvDouble("CAKPMPI_P", cfg.nodes * cfg.rpn, 1, &cfg.P, err, sizeof(err));
  if (getenv("CAKPMPI_P") && !getenv("CAKPMPI_NODES")) cfg.nodes = fmax(1.0, cfg.P / cfg.rpn);
  bad |= EnvDouble("CAKPMPI_C0", 3.5e-6, 0, &cfg.C0, err, sizeof(err));
  bad |= EnvDouble("CAKPMPI_C1", 1.7e-6, 0, &cfg.C1, err, sizeof(err));
  bad |= EnvDouble("CAKPMPI_N0", 0.21, 0, &cfg.n0, err, sizeof(err));
  bad |= EnvDouble("CAKPMPI_N1", 0.54, 0, &cfg.n1, err, sizeof(err));
  bad |= EnvDouble("CAKPMPI_T0", 2e-6, 0, &cfg.t0, err, sizeof(err));
  bad |= EnvDouble("CAKPMPI_RINF", 1e10, 1, &cfg.rinf, err, sizeof(err));
  bad |= EnvDouble("CAKPMPI_COMM_SCALE", 1, 0, &v, err, sizeof(err));
  cfg.comm_scale = v != 0;
  bad |= EnvDouble("CAKPMPI_ROUNDS", 0, 0, &v, err, sizeof(err));
  cfg.rounds = (int)v;
  bad |= EnvDouble("CAKPMPI_VERBOSE", 0, 0, &v, err, sizeof(err));
  cfg.verbose = v != 0;
  bad |= EnvDouble("CAKPMPI_HALO_US", 0, 0, &v, err, sizeof(err));
  cfg.halo_s = v * 1e-6;
  cfg.halo   = getenv("CAKPMPI_HALO_US") && *getenv("CAKPMPI_HALO_US") ? HALO_CONST : HALO_NONE;
  if (h && *h) {
    if (strcmp(h, "krasnopolsky") || cfg.halo == HALO_CONST) {
      snprintf(err, sizeof(err), "cakpmpi: CAKPMPI_HALO=%s: only 'krasnopolsky' (and not together with CAKPMPI_HALO_US)", h);
      bad = 1;
    } else cfg.halo = HALO_KRASNOPOLSKY;
  }
  if (bad) {
    if (!world_rank) fprintf(stderr, "%s\n%s", err, helptext);
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (help && !world_rank) fprintf(stderr, "%s(CAKPMPI_MODEL=help: running without a model)\n", helptext);
  if (cfg.verbose && !world_rank) {
    fprintf(stderr, "cakpmpi: model %s", modelname[cfg.model]);
    if (cfg.model == MODEL_KRASNOPOLSKY) fprintf(stderr, " (T_G = %g + %g l^%g p^%g s, p = %g nodes)", cfg.C0, cfg.C1, cfg.n0, cfg.n1, cfg.nodes);
    if (cfg.model == MODEL_HOCKNEY) fprintf(stderr, " (T_G = ceil(log2 %g) (%g + l/%g) s)", cfg.P, cfg.t0, cfg.rinf);
    if (cfg.model != MODEL_NONE) fprintf(stderr, ", progress %s, 1 round = T_G/%d on the whole machine", progressname[cfg.progress], Rounds(MPI_COMM_WORLD));
    if (cfg.halo) fprintf(stderr, ", halo receives %s", cfg.halo == HALO_CONST ? "delayed by a constant" : "delayed by Krasnopolsky's T_L(l)");
    fprintf(stderr, "%s\n", cfg.model || cfg.halo ? ": simulated latency, a planning model, not a measurement" : "");
  }
  t_init = PMPI_Wtime();
}

static void ModelDescription(char *buf, size_t len)
{
  int n = snprintf(buf, len, "model=%s", modelname[cfg.model]);

  if (cfg.model == MODEL_KRASNOPOLSKY) n += snprintf(buf + n, len - n, " nodes=%g C0=%g C1=%g n0=%g n1=%g", cfg.nodes, cfg.C0, cfg.C1, cfg.n0, cfg.n1);
  if (cfg.model == MODEL_HOCKNEY) n += snprintf(buf + n, len - n, " P=%g t0=%g rinf=%g", cfg.P, cfg.t0, cfg.rinf);
  if (cfg.model != MODEL_NONE) n += snprintf(buf + n, len - n, " progress=%s rounds=%d comm_scale=%d", progressname[cfg.progress], Rounds(MPI_COMM_WORLD), cfg.comm_scale);
  if (cfg.halo == HALO_CONST) n += snprintf(buf + n, len - n, " halo_us=%g", cfg.halo_s * 1e6);
  if (cfg.halo == HALO_KRASNOPOLSKY) snprintf(buf + n, len - n, " halo=krasnopolsky");
}

static void PrintRank(FILE *f, int rank, const double *c, int simulated)
{
  fprintf(f, "cakpmpi rank=%d ranks=%d", rank, world_size);
  for (int i = 0; i < NFIELDS; i++) {
    if (isseconds(i)) fprintf(f, " %s=%.6g", fieldname[i], c[i]);
    else fprintf(f, " %s=%.0f", fieldname[i], c[i]);
  }
  fprintf(f, "%s\n", simulated ? " # simulated latency: a planning model, not a measurement" : "");
}

static void Report(void)
{
  double     *all     = NULL;
  const char *out     = getenv("CAKPMPI_OUTPUT");
  int         perrank = out && strstr(out, "%r"), simulated = cfg.model != MODEL_NONE || cfg.halo != HALO_NONE;
  FILE       *f = stderr;
  char        name[4096], model[512];

  ctr[F_ELAPSED_S]  = PMPI_Wtime() - t_init;
  ctr[F_REDUCTIONS] = ctr[F_ALLREDUCE] + ctr[F_IALLREDUCE];
  if (!world_rank) all = malloc(sizeof(double) * NFIELDS * world_size);
  PMPI_Gather(ctr, NFIELDS, MPI_DOUBLE, all, NFIELDS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (out && *out) {
    const char *p = strstr(out, "%r");

    if (p) snprintf(name, sizeof(name), "%.*s%d%s", (int)(p - out), out, world_rank, p + 2);
    else snprintf(name, sizeof(name), "%s", out);
    if (perrank || !world_rank) {
      f = fopen(name, "a");
      if (!f) {
        fprintf(stderr, "cakpmpi: cannot open CAKPMPI_OUTPUT=%s; writing to stderr\n", name);
        f = stderr;
      }
    }
  }
  if (perrank) PrintRank(f, world_rank, ctr, simulated);
  if (!world_rank) {
    if (!perrank)
      for (int r = 0; r < world_size; r++) PrintRank(f, r, all + r * NFIELDS, simulated);
    ModelDescription(model, sizeof(model));
    fprintf(f, "cakpmpi total ranks=%d %s", world_size, model);
    for (int i = 0; i < NFIELDS; i++) {
      double sum = 0, max = 0;

      for (int r = 0; r < world_size; r++) {
        sum += all[r * NFIELDS + i];
        max = fmax(max, all[r * NFIELDS + i]);
      }
      if (isseconds(i)) fprintf(f, " %s_sum=%.6g %s_max=%.6g", fieldname[i], sum, fieldname[i], max);
      else fprintf(f, " %s_sum=%.0f %s_max=%.0f", fieldname[i], sum, fieldname[i], max);
    }
    fprintf(f, "%s\n", simulated ? " # simulated latency: a planning model, not a measurement" : "");
    free(all);
  }
  if (f != stderr) fclose(f);
  else fflush(f);
}

/* ---------------------------------------------------------------- the interposed functions ------------------------ */
EXPORT int MPI_Init(int *argc, char ***argv)
{
  int rc = PMPI_Init(argc, argv);

  if (rc == MPI_SUCCESS) Setup();
  return rc;
}

EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  int rc = PMPI_Init_thread(argc, argv, required, provided);

  if (rc == MPI_SUCCESS) Setup();
  return rc;
}

EXPORT int MPI_Finalize(void)
{
  if (initialized) Report();
  free(sims);
  free(pers);
  sims = NULL, pers = NULL, nsims = npers = capsims = cappers = 0;
  return PMPI_Finalize();
}

EXPORT int MPI_Pcontrol(const int level, ...)
{
  counting = level != 0;
  return MPI_SUCCESS;
}

/* ---- global reductions ---- */
/* Counts a reduction of count items (field: its count, field + 1: its bytes) on a communicator of more than one rank;
   returns its simulated time T_G (counted as simulated), or 0 when nothing is simulated */
static double Reduction(MPI_Comm comm, int count, MPI_Datatype datatype, int field)
{
  double bytes, T;

  PROGRESS_HOOK();
  if (!Parallel(comm)) return 0.0;
  bytes = Bytes(count, datatype);
  COUNT(field, 1);
  COUNT(field + 1, bytes);
  if (cfg.model == MODEL_NONE) return 0.0;
  T = ModelTime(comm, bytes);
  COUNT(F_SIM_REDUCTIONS, 1);
  COUNT(F_SIM_MODEL_S, T);
  return T;
}

EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  const double t  = PMPI_Wtime();
  const double T  = Reduction(comm, count, datatype, F_ALLREDUCE);
  const int    rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);

  if (T > 0) SpinUntil(t + T, F_SIM_DELAY_S);
  return rc;
}

EXPORT int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  const double t  = PMPI_Wtime();
  const double T  = Reduction(comm, count, datatype, F_IALLREDUCE);
  const int    rc = PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);

  if (rc == MPI_SUCCESS && T > 0) SimAdd(*request, SIM_REDUCTION, t, T, Rounds(comm));
  return rc;
}

/* ---- other collectives: counted on communicators of more than one rank, never delayed ---- */
#define COLL(field, call) \
  do { \
    PROGRESS_HOOK(); \
    if (Parallel(comm)) COUNT(field, 1); \
    return call; \
  } while (0)

EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
  PROGRESS_HOOK();
  if (Parallel(comm)) {
    COUNT(F_REDUCE, 1);
    COUNT(F_REDUCE_BYTES, Bytes(count, datatype));
  }
  return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
  PROGRESS_HOOK();
  if (Parallel(comm)) {
    COUNT(F_BCAST, 1);
    COUNT(F_BCAST_BYTES, Bytes(count, datatype));
  }
  return PMPI_Bcast(buffer, count, datatype, root, comm);
}

EXPORT int MPI_Barrier(MPI_Comm comm)
{
  COLL(F_BARRIER, PMPI_Barrier(comm));
}

EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  COLL(F_ALLGATHER, PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  COLL(F_ALLGATHER, PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
}

EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  COLL(F_ALLTOALL, PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  COLL(F_ALLTOALL, PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
}

EXPORT int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
  COLL(F_ALLTOALL, PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm));
}

EXPORT int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  COLL(F_GATHER, PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  COLL(F_GATHER, PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm));
}

EXPORT int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  COLL(F_SCATTER, PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  COLL(F_SCATTER, PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  COLL(F_REDUCE_SCATTER, PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm));
}

EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  COLL(F_REDUCE_SCATTER, PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm));
}

EXPORT int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  COLL(F_SCAN, PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm));
}

EXPORT int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  COLL(F_SCAN, PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm));
}

EXPORT int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  COLL(F_NEIGHBOR, PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

EXPORT int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  COLL(F_NEIGHBOR, PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
}

EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Ibarrier(comm, request));
}

EXPORT int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Ibcast(buffer, count, datatype, root, comm, request));
}

EXPORT int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request));
}

EXPORT int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request));
}

EXPORT int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request));
}

EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request));
}

EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request));
}

EXPORT int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request));
}

EXPORT int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request));
}

EXPORT int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request));
}

EXPORT int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request));
}

EXPORT int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request));
}

EXPORT int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request));
}

EXPORT int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request));
}

EXPORT int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  COLL(F_ICOLL, PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request));
}

/* ---- point to point ---- */
static void CountSend(int count, MPI_Datatype type, int dest)
{
  if (dest == MPI_PROC_NULL) return;
  COUNT(F_SEND, 1);
  COUNT(F_SEND_BYTES, Bytes(count, type));
}

static void CountRecv(int count, MPI_Datatype type, int source)
{
  if (source == MPI_PROC_NULL) return;
  COUNT(F_RECV, 1);
  COUNT(F_RECV_BYTES, Bytes(count, type));
}

/* The delay of a receive posted at time t, or 0 when none is simulated */
static double HaloDelay(int count, MPI_Datatype type, int source, MPI_Comm comm)
{
  if (cfg.halo == HALO_NONE || source == MPI_PROC_NULL || !Parallel(comm)) return 0.0;
  return HaloTime(Bytes(count, type));
}

static void HaloBlocking(double t, double T)
{
  if (T <= 0) return;
  COUNT(F_SIM_HALO, 1);
  SpinUntil(t + T, F_SIM_HALO_DELAY_S);
}

static void HaloNonblocking(MPI_Request h, double t, double T)
{
  if (T <= 0) return;
  COUNT(F_SIM_HALO, 1);
  SimAdd(h, SIM_HALO, t, T, 1);
}

#define SEND(call) \
  do { \
    PROGRESS_HOOK(); \
    CountSend(count, datatype, dest); \
    return call; \
  } while (0)

EXPORT int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  SEND(PMPI_Send(buf, count, datatype, dest, tag, comm));
}
EXPORT int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  SEND(PMPI_Ssend(buf, count, datatype, dest, tag, comm));
}
EXPORT int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  SEND(PMPI_Rsend(buf, count, datatype, dest, tag, comm));
}
EXPORT int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  SEND(PMPI_Bsend(buf, count, datatype, dest, tag, comm));
}
EXPORT int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
  SEND(PMPI_Isend(buf, count, datatype, dest, tag, comm, request));
}
EXPORT int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
  SEND(PMPI_Issend(buf, count, datatype, dest, tag, comm, request));
}
EXPORT int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
  SEND(PMPI_Irsend(buf, count, datatype, dest, tag, comm, request));
}
EXPORT int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
  SEND(PMPI_Ibsend(buf, count, datatype, dest, tag, comm, request));
}

/* The start of a receive: its time, progress, the count */
static double RecvBegin(int count, MPI_Datatype datatype, int source)
{
  const double t = PMPI_Wtime();

  PROGRESS_HOOK();
  CountRecv(count, datatype, source);
  return t;
}

EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  const double t  = RecvBegin(count, datatype, source);
  const int    rc = PMPI_Recv(buf, count, datatype, source, tag, comm, status);

  HaloBlocking(t, HaloDelay(count, datatype, source, comm));
  return rc;
}

EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
  const double t  = RecvBegin(count, datatype, source);
  const int    rc = PMPI_Irecv(buf, count, datatype, source, tag, comm, request);

  if (rc == MPI_SUCCESS) HaloNonblocking(*request, t, HaloDelay(count, datatype, source, comm));
  return rc;
}

EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  const double t = PMPI_Wtime();
  int          rc;

  PROGRESS_HOOK();
  CountSend(sendcount, sendtype, dest);
  CountRecv(recvcount, recvtype, source);
  rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status);
  HaloBlocking(t, HaloDelay(recvcount, recvtype, source, comm));
  return rc;
}

EXPORT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  const double t = PMPI_Wtime();
  int          rc;

  PROGRESS_HOOK();
  CountSend(count, datatype, dest);
  CountRecv(count, datatype, source);
  rc = PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
  HaloBlocking(t, HaloDelay(count, datatype, source, comm));
  return rc;
}

/* ---- persistent point to point: counted (and delayed) when started ---- */
#define SEND_INIT(call) \
  do { \
    int rc_ = call; \
    if (rc_ == MPI_SUCCESS && dest != MPI_PROC_NULL) PersAdd(*request, 0, Bytes(count, datatype), comm); \
    return rc_; \
  } while (0)

EXPORT int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
  SEND_INIT(PMPI_Send_init(buf, count, datatype, dest, tag, comm, request));
}
EXPORT int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
  SEND_INIT(PMPI_Ssend_init(buf, count, datatype, dest, tag, comm, request));
}
EXPORT int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
  SEND_INIT(PMPI_Bsend_init(buf, count, datatype, dest, tag, comm, request));
}
EXPORT int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
  SEND_INIT(PMPI_Rsend_init(buf, count, datatype, dest, tag, comm, request));
}

EXPORT int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
  int rc = PMPI_Recv_init(buf, count, datatype, source, tag, comm, request);

  if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) PersAdd(*request, 1, Bytes(count, datatype), comm);
  return rc;
}

/* After a (successful) start of h at time t */
static void Started(MPI_Request h, double t)
{
  Persistent *p = PersFind(h);

  if (!p) return; /* a persistent collective, or to/from MPI_PROC_NULL */
  COUNT(p->recv ? F_RECV : F_SEND, 1);
  COUNT(p->recv ? F_RECV_BYTES : F_SEND_BYTES, p->bytes);
  COUNT(F_STARTS, 1);
  if (p->recv && p->parallel && cfg.halo != HALO_NONE) HaloNonblocking(h, t, HaloTime(p->bytes));
}

EXPORT int MPI_Start(MPI_Request *request)
{
  const double t = PMPI_Wtime();
  int          rc;

  PROGRESS_HOOK();
  rc = PMPI_Start(request);
  if (rc == MPI_SUCCESS) Started(*request, t);
  return rc;
}

EXPORT int MPI_Startall(int count, MPI_Request array_of_requests[])
{
  const double t = PMPI_Wtime();
  int          rc;

  PROGRESS_HOOK();
  rc = PMPI_Startall(count, array_of_requests);
  if (rc == MPI_SUCCESS)
    for (int i = 0; i < count; i++) Started(array_of_requests[i], t);
  return rc;
}

EXPORT int MPI_Request_free(MPI_Request *request)
{
  Sim        *s = SimFind(*request);
  Persistent *p = PersFind(*request);

  if (s) SimRemove(s);
  if (p) *p = pers[--npers];
  return PMPI_Request_free(request);
}

/* ---- completion ---- */
EXPORT int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
  Sim *s;

  PROGRESS_HOOK();
  COUNT(F_TEST, 1);
  s = SimFind(request);
  if (!s) return PMPI_Request_get_status(request, flag, status);
  *flag = SimPoll(s);
  if (*flag) return PMPI_Request_get_status(request, flag, status); /* the status, without freeing */
  return MPI_SUCCESS;
}

EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
  Sim *s;

  PROGRESS_HOOK();
  COUNT(F_TEST, 1);
  s = SimFind(*request);
  if (!s) return PMPI_Test(request, flag, status);
  *flag = SimPoll(s);
  if (*flag) return SimFinish(request, status, 0.0);
  return MPI_SUCCESS;
}

EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
  Sim *s;

  PROGRESS_HOOK();
  COUNT(F_WAIT, 1);
  s = SimFind(*request);
  if (!s) return PMPI_Wait(request, status);
  return SimFinish(request, status, SimReadyTime(s, PMPI_Wtime()));
}

/* Arrays: does any entry belong to the simulator? Then tmp gets a copy with those replaced by MPI_REQUEST_NULL. */
static int AnySim(int n, const MPI_Request reqs[])
{
  if (!nsims) return 0;
  for (int i = 0; i < n; i++)
    if (SimFind(reqs[i])) return 1;
  return 0;
}

static MPI_Request *RealOnly(int n, const MPI_Request reqs[])
{
  MPI_Request *tmp = malloc(sizeof(MPI_Request) * (n > 0 ? n : 1));

  if (!tmp) PMPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = 0; i < n; i++) tmp[i] = SimFind(reqs[i]) ? MPI_REQUEST_NULL : reqs[i];
  return tmp;
}

#define STATUS(statuses, i) ((statuses) == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &(statuses)[i])

EXPORT int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses)
{
  MPI_Request *tmp;
  double      *ready, now;
  int          rc;

  PROGRESS_HOOK();
  COUNT(F_WAIT, 1);
  if (!AnySim(count, array_of_requests)) return PMPI_Waitall(count, array_of_requests, array_of_statuses);
  /* every simulated request in the array progresses from this moment: their completion times are fixed now */
  now   = PMPI_Wtime();
  ready = malloc(sizeof(double) * count);
  if (!ready) PMPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = 0; i < count; i++) {
    Sim *s = SimFind(array_of_requests[i]);

    ready[i] = s ? SimReadyTime(s, now) : 0.0;
  }
  tmp = RealOnly(count, array_of_requests);
  rc  = PMPI_Waitall(count, tmp, array_of_statuses);
  for (int i = 0; i < count; i++) {
    if (SimFind(array_of_requests[i])) {
      int rci = SimFinish(&array_of_requests[i], STATUS(array_of_statuses, i), ready[i]);

      if (rc == MPI_SUCCESS) rc = rci;
    } else array_of_requests[i] = tmp[i];
  }
  free(tmp);
  free(ready);
  return rc;
}

EXPORT int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])
{
  MPI_Request *tmp;
  int          rc, simready = 1;

  PROGRESS_HOOK();
  COUNT(F_TEST, 1);
  if (!AnySim(count, array_of_requests)) return PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
  for (int i = 0; i < count; i++) { /* every simulated request is polled (each may start its next round) */
    Sim *s = SimFind(array_of_requests[i]);

    if (s && !SimPoll(s)) simready = 0;
  }
  *flag = 0;
  if (!simready) { /* progress the real ones without completing (freeing) any: Testall completes all or none */
    for (int i = 0; i < count; i++) {
      int f;

      if (!SimFind(array_of_requests[i]) && array_of_requests[i] != MPI_REQUEST_NULL) PMPI_Request_get_status(array_of_requests[i], &f, MPI_STATUS_IGNORE);
    }
    return MPI_SUCCESS;
  }
  tmp = RealOnly(count, array_of_requests);
  rc  = PMPI_Testall(count, tmp, flag, array_of_statuses);
  if (*flag) {
    for (int i = 0; i < count; i++) {
      if (SimFind(array_of_requests[i])) SimFinish(&array_of_requests[i], STATUS(array_of_statuses, i), 0.0);
      else array_of_requests[i] = tmp[i];
    }
  }
  free(tmp);
  return rc;
}

/* Testany without counting: 1 when one request completed (or none is active: *index = MPI_UNDEFINED) */
static int TestanyInternal(int count, MPI_Request reqs[], int *index, MPI_Status *status, int *rc)
{
  MPI_Request *tmp;
  int          f = 0, idx = MPI_UNDEFINED;

  *rc = MPI_SUCCESS;
  for (int i = 0; i < count; i++) {
    Sim *s = SimFind(reqs[i]);

    if (s && SimPoll(s)) {
      *rc    = SimFinish(&reqs[i], status, 0.0);
      *index = i;
      return 1;
    }
  }
  tmp = RealOnly(count, reqs);
  *rc = PMPI_Testany(count, tmp, &idx, &f, status);
  if (f && idx != MPI_UNDEFINED) {
    reqs[idx] = tmp[idx];
    *index    = idx;
    free(tmp);
    return 1;
  }
  free(tmp);
  *index = MPI_UNDEFINED;
  return 0; /* simulated requests are active, so "no active request" is not the answer */
}

EXPORT int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status)
{
  int rc;

  PROGRESS_HOOK();
  COUNT(F_TEST, 1);
  if (!AnySim(count, array_of_requests)) return PMPI_Testany(count, array_of_requests, index, flag, status);
  *flag = TestanyInternal(count, array_of_requests, index, status, &rc);
  return rc;
}

EXPORT int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
  int rc;

  PROGRESS_HOOK();
  COUNT(F_WAIT, 1);
  if (!AnySim(count, array_of_requests)) return PMPI_Waitany(count, array_of_requests, index, status);
  while (!TestanyInternal(count, array_of_requests, index, status, &rc)) { } /* inside the call: rounds run back to back */
  return rc;
}

/* Testsome without counting: the completed real requests (PMPI_Testsome), then the completed simulated ones */
static int TestsomeInternal(int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
  MPI_Request *tmp = RealOnly(incount, reqs);
  int          rc, n = 0;

  rc = PMPI_Testsome(incount, tmp, &n, indices, statuses);
  if (n == MPI_UNDEFINED) n = 0;
  for (int j = 0; j < n; j++) reqs[indices[j]] = tmp[indices[j]];
  for (int i = 0; i < incount; i++) {
    Sim *s = SimFind(reqs[i]);

    if (s && SimPoll(s)) {
      SimFinish(&reqs[i], STATUS(statuses, n), 0.0);
      indices[n++] = i;
    }
  }
  free(tmp);
  *outcount = n;
  return rc;
}

EXPORT int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[])
{
  PROGRESS_HOOK();
  COUNT(F_TEST, 1);
  if (!AnySim(incount, array_of_requests)) return PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
  return TestsomeInternal(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

EXPORT int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[])
{
  int rc;

  PROGRESS_HOOK();
  COUNT(F_WAIT, 1);
  if (!AnySim(incount, array_of_requests)) return PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
  do rc = TestsomeInternal(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
  while (rc == MPI_SUCCESS && *outcount == 0);
  return rc;
}
