/*
   Validation of the cakpmpi library (share/bench/cakpmpi/cakpmpi.c), run under LD_PRELOAD by share/bench/cakpmpi/check.sh
   (make pmpi-check). Pure MPI, no PETSc; 2 or more ranks.

     validate counts     makes a known set of MPI calls inside an MPI_Pcontrol(1) ... MPI_Pcontrol(0) window (and
                         others outside it, and on MPI_COMM_SELF, that must not count), checks the results and request
                         handles of every completion function on simulated requests, and prints the counts the library
                         must report for every rank: "cakpmpi-expect key=value ..." (check.sh compares them)
     validate timing     measures, under the model the CAKPMPI_* environment variables select, blocking MPI_Allreduce,
                         MPI_Iallreduce + MPI_Wait, and MPI_Iallreduce + work W (+ MPI_Test calls) + MPI_Wait, and
                         compares them with the model's prediction, computed here independently of the library
                         (and, with CAKPMPI_HALO_US or CAKPMPI_HALO, halo receives). One line per case:
                         "ok"/"FAIL" case, predicted and measured microseconds, relative error.
       -bytes 8,64,...   message sizes (multiples of 8: doubles)      -reps N   repetitions (median), default 20
       -tol 0.05         relative tolerance for predictions >= 10 us (below: 1 us absolute)
       -real 8:0.4,...   the real cost (us) per message size that MPI_Wait still needs when no MPI call progressed
                         the real reduction during the work (this machine's MPI, measured by "validate real"):
                         the simulator includes the real operation's cost, so the prediction does too
     validate real       measures that cost without a model: MPI_Iallreduce, 50 us of work, time in MPI_Wait

   The "work" is a busy wait on MPI_Wtime, so its duration is exact; tests are made at fixed times within it and
   their actual times feed the prediction of the no-progress model. Times are per rank, medians over the repetitions,
   then the maximum over the ranks.
*/
#include <mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, nfail, npass;

#define CHECK(cond, ...) \
  do { \
    if (!(cond)) { \
      fprintf(stderr, "FAIL rank %d: ", rank); \
      fprintf(stderr, __VA_ARGS__); \
      fprintf(stderr, "\n"); \
      nfail++; \
    } else npass++; \
  } while (0)

/* ================================================================ counts ========================================== */
enum {
  E_ALLREDUCE,
  E_ALLREDUCE_BYTES,
  E_IALLREDUCE,
  E_IALLREDUCE_BYTES,
  E_REDUCTIONS,
  E_REDUCE,
  E_REDUCE_BYTES,
  E_BCAST,
  E_BCAST_BYTES,
  E_BARRIER,
  E_ALLGATHER,
  E_SCAN,
  E_ICOLL,
  E_SEND,
  E_SEND_BYTES,
  E_RECV,
  E_RECV_BYTES,
  E_STARTS,
  E_TEST,
  E_WAIT,
  NE
};
static const char *const ename[NE] = {"allreduce", "allreduce_bytes", "iallreduce", "iallreduce_bytes", "reductions", "reduce",         "reduce_bytes", "bcast", "bcast_bytes", "barrier", "allgather",
                                      "scan",      "icoll",           "p2p_send",   "p2p_send_bytes",   "p2p_recv",   "p2p_recv_bytes", "p2p_starts",   "test",  "wait"};
static long long         e[NE];

/* an MPI_Iallreduce of 3 ints (rank, 1, 2 rank) on MPI_COMM_WORLD, checked at completion */
static int  ibuf[3], iout[3];
static void StartIallreduce(MPI_Request *r)
{
  ibuf[0] = rank, ibuf[1] = 1, ibuf[2] = 2 * rank;
  iout[0] = iout[1] = iout[2] = -1;
  MPI_Iallreduce(ibuf, iout, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, r);
  e[E_IALLREDUCE]++, e[E_IALLREDUCE_BYTES] += 3 * sizeof(int);
}

static void CheckIallreduce(const char *how, MPI_Request r)
{
  const int s = size * (size - 1) / 2;

  CHECK(r == MPI_REQUEST_NULL, "%s: the request is not MPI_REQUEST_NULL after completion", how);
  CHECK(iout[0] == s && iout[1] == size && iout[2] == 2 * s, "%s: wrong MPI_Iallreduce result %d %d %d", how, iout[0], iout[1], iout[2]);
}

/* a message exchange with the ring neighbours: Isend to right, Irecv from left, 4 doubles */
static double sbuf[4], rbuf[4];
static void   StartExchange(MPI_Request *send, MPI_Request *recv, int tag)
{
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  for (int i = 0; i < 4; i++) sbuf[i] = 100 * rank + i + tag, rbuf[i] = -1;
  MPI_Irecv(rbuf, 4, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, recv);
  MPI_Isend(sbuf, 4, MPI_DOUBLE, right, tag, MPI_COMM_WORLD, send);
  e[E_SEND]++, e[E_SEND_BYTES] += 32, e[E_RECV]++, e[E_RECV_BYTES] += 32;
}

static void CheckExchange(const char *how, int tag)
{
  const int left = (rank + size - 1) % size;

  CHECK(rbuf[0] == 100 * left + tag && rbuf[3] == 100 * left + 3 + tag, "%s: wrong message", how);
}

static int Counts(void)
{
  MPI_Request r[3], ps[2];
  double      x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8];
  int         flag, idx, n, ind[3], done;
  MPI_Status  st[3];

  /* before the first MPI_Pcontrol: counted unless CAKPMPI_PAUSED=1 */
  MPI_Barrier(MPI_COMM_WORLD);
  if (!(getenv("CAKPMPI_PAUSED") && atoi(getenv("CAKPMPI_PAUSED")))) e[E_BARRIER]++;
  MPI_Pcontrol(0);
  for (int i = 0; i < 3; i++) MPI_Allreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* paused: not counted */
  /* persistent requests: created uncounted (only their starts count) */
  MPI_Recv_init(rbuf, 4, MPI_DOUBLE, (rank + size - 1) % size, 77, MPI_COMM_WORLD, &ps[0]);
  MPI_Send_init(sbuf, 4, MPI_DOUBLE, (rank + 1) % size, 77, MPI_COMM_WORLD, &ps[1]);
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Pcontrol(1); /* ------------------------------------------------ the counted region */
  for (int k = 1; k <= 7; k++) {
    MPI_Allreduce(x, y, k, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    e[E_ALLREDUCE]++, e[E_ALLREDUCE_BYTES] += 8 * k;
    CHECK(y[k - 1] == size * x[k - 1], "MPI_Allreduce result");
  }
  MPI_Allreduce(x, y, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF); /* one rank: not a global reduction */
  MPI_Allreduce(MPI_IN_PLACE, y, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_SELF);

  /* non-blocking reductions, completed by every completion function, mixed with point-to-point requests */
  StartIallreduce(&r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE), e[E_WAIT]++;
  CheckIallreduce("MPI_Wait", r[0]);

  StartIallreduce(&r[0]);
  do MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE), e[E_TEST]++;
  while (!flag);
  CheckIallreduce("MPI_Test", r[0]);

  StartIallreduce(&r[0]);
  do MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE), e[E_TEST]++;
  while (!flag);
  CHECK(r[0] != MPI_REQUEST_NULL, "MPI_Request_get_status must not free the request");
  MPI_Wait(&r[0], MPI_STATUS_IGNORE), e[E_WAIT]++;
  CheckIallreduce("MPI_Request_get_status + MPI_Wait", r[0]);

  StartIallreduce(&r[0]);
  StartExchange(&r[1], &r[2], 1);
  MPI_Waitall(3, r, st), e[E_WAIT]++;
  CheckIallreduce("MPI_Waitall", r[0]);
  CHECK(r[1] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL, "MPI_Waitall: point-to-point requests not freed");
  CHECK(st[2].MPI_SOURCE == (rank + size - 1) % size && st[2].MPI_TAG == 1, "MPI_Waitall: status of the receive");
  CheckExchange("MPI_Waitall", 1);

  StartExchange(&r[1], &r[2], 2);
  StartIallreduce(&r[0]);
  do MPI_Testall(3, r, &flag, MPI_STATUSES_IGNORE), e[E_TEST]++;
  while (!flag);
  CheckIallreduce("MPI_Testall", r[0]);
  CHECK(r[1] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL, "MPI_Testall: point-to-point requests not freed");
  CheckExchange("MPI_Testall", 2);

  StartIallreduce(&r[0]);
  StartExchange(&r[1], &r[2], 3);
  done = 0;
  while (done < 3) { /* MPI_Testany until all three are done, then once more: no active request */
    MPI_Testany(3, r, &idx, &flag, MPI_STATUS_IGNORE), e[E_TEST]++;
    if (flag) {
      CHECK(idx >= 0 && idx < 3 && r[idx] == MPI_REQUEST_NULL, "MPI_Testany: index %d", idx);
      done++;
    }
  }
  MPI_Testany(3, r, &idx, &flag, MPI_STATUS_IGNORE), e[E_TEST]++;
  CHECK(flag && idx == MPI_UNDEFINED, "MPI_Testany with no active request");
  CheckIallreduce("MPI_Testany", r[0]);
  CheckExchange("MPI_Testany", 3);

  StartIallreduce(&r[0]);
  StartExchange(&r[1], &r[2], 4);
  for (int k = 0; k < 3; k++) {
    MPI_Waitany(3, r, &idx, MPI_STATUS_IGNORE), e[E_WAIT]++;
    CHECK(idx >= 0 && idx < 3 && r[idx] == MPI_REQUEST_NULL, "MPI_Waitany: index %d", idx);
  }
  CheckIallreduce("MPI_Waitany", r[0]);
  CheckExchange("MPI_Waitany", 4);

  for (int wait = 0; wait < 2; wait++) { /* MPI_Testsome, then MPI_Waitsome (which completes at least one each call) */
    const char *name = wait ? "MPI_Waitsome" : "MPI_Testsome";

    StartIallreduce(&r[0]);
    StartExchange(&r[1], &r[2], 5 + wait);
    done = 0;
    while (done < 3) {
      if (wait) MPI_Waitsome(3, r, &n, ind, MPI_STATUSES_IGNORE), e[E_WAIT]++;
      else MPI_Testsome(3, r, &n, ind, st), e[E_TEST]++;
      CHECK(n >= wait && n <= 3 - done, "%s: outcount %d", name, n);
      for (int j = 0; j < n; j++) CHECK(r[ind[j]] == MPI_REQUEST_NULL, "%s: request %d not freed", name, ind[j]);
      done += n > 0 ? n : 0;
    }
    CheckIallreduce(name, r[0]);
    CheckExchange(name, 5 + wait);
  }

  /* persistent requests: 3 x Startall + Waitall, then Start each + Wait each */
  for (int k = 0; k < 3; k++) {
    for (int i = 0; i < 4; i++) sbuf[i] = 100 * rank + i + 77, rbuf[i] = -1;
    MPI_Startall(2, ps);
    MPI_Waitall(2, ps, MPI_STATUSES_IGNORE), e[E_WAIT]++;
    e[E_SEND]++, e[E_SEND_BYTES] += 32, e[E_RECV]++, e[E_RECV_BYTES] += 32, e[E_STARTS] += 2;
    CHECK(ps[0] != MPI_REQUEST_NULL && ps[1] != MPI_REQUEST_NULL, "persistent requests freed by MPI_Waitall");
    CheckExchange("persistent, MPI_Startall", 77);
  }
  MPI_Start(&ps[0]);
  MPI_Start(&ps[1]);
  MPI_Wait(&ps[1], MPI_STATUS_IGNORE), e[E_WAIT]++;
  MPI_Wait(&ps[0], MPI_STATUS_IGNORE), e[E_WAIT]++;
  e[E_SEND]++, e[E_SEND_BYTES] += 32, e[E_RECV]++, e[E_RECV_BYTES] += 32, e[E_STARTS] += 2;
  CheckExchange("persistent, MPI_Start", 77);

  /* blocking point to point; to/from MPI_PROC_NULL does not count */
  for (int k = 0; k < 2; k++) {
    MPI_Sendrecv(sbuf, 4, MPI_DOUBLE, (rank + 1) % size, 9, rbuf, 4, MPI_DOUBLE, (rank + size - 1) % size, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    e[E_SEND]++, e[E_SEND_BYTES] += 32, e[E_RECV]++, e[E_RECV_BYTES] += 32;
  }
  MPI_Sendrecv(sbuf, 4, MPI_DOUBLE, MPI_PROC_NULL, 9, rbuf, 4, MPI_DOUBLE, MPI_PROC_NULL, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 0) MPI_Send(sbuf, 2, MPI_DOUBLE, 1, 10, MPI_COMM_WORLD), e[E_SEND]++, e[E_SEND_BYTES] += 16;
  if (rank == 1) MPI_Recv(rbuf, 2, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE), e[E_RECV]++, e[E_RECV_BYTES] += 16;

  /* other collectives */
  MPI_Bcast(x, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD), e[E_BCAST]++, e[E_BCAST_BYTES] += 64;
  MPI_Bcast(x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD), e[E_BCAST]++, e[E_BCAST_BYTES] += 8;
  MPI_Bcast(x, 1, MPI_DOUBLE, 0, MPI_COMM_SELF); /* one rank: not counted */
  MPI_Reduce(x, y, 4, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD), e[E_REDUCE]++, e[E_REDUCE_BYTES] += 32;
  MPI_Barrier(MPI_COMM_WORLD), e[E_BARRIER]++;
  MPI_Allgather(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, MPI_COMM_WORLD), e[E_ALLGATHER]++;
  MPI_Scan(x, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), e[E_SCAN]++;
  MPI_Ibarrier(MPI_COMM_WORLD, &r[0]), e[E_ICOLL]++;
  MPI_Wait(&r[0], MPI_STATUS_IGNORE), e[E_WAIT]++;
  MPI_Pcontrol(0); /* ------------------------------------------------ end of the counted region */

  for (int i = 0; i < 3; i++) MPI_Allreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  StartIallreduce(&r[0]); /* (the counter of this program counts it: subtracted below) */
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  e[E_IALLREDUCE]--, e[E_IALLREDUCE_BYTES] -= 3 * sizeof(int);
  MPI_Request_free(&ps[0]);
  MPI_Request_free(&ps[1]);
  e[E_REDUCTIONS] = e[E_ALLREDUCE] + e[E_IALLREDUCE];

  {
    int       maxfail, checks = npass + nfail;
    long long all[64 * NE];

    /* (uncounted, and MPI_Gather is never delayed) */
    MPI_Allreduce(MPI_IN_PLACE, &checks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&nfail, &maxfail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (size <= 64) MPI_Gather(e, NE, MPI_LONG_LONG, all, NE, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (!rank) {
      for (int r = 0; r < size && r < 64; r++) {
        printf("cakpmpi-expect rank=%d", r);
        for (int i = 0; i < NE; i++) printf(" %s=%lld", ename[i], all[r * NE + i]);
        printf("\n");
      }
      printf("counts: request semantics and results: %d checks on %d ranks, %s\n", checks, size, maxfail ? "FAILED (see stderr)" : "all ok");
    }
    return maxfail ? 1 : 0;
  }
}

/* ================================================================ timing ========================================== */
typedef struct {
  int    model, progress, R, halo; /* model: 0 none, 1 krasnopolsky, 2 hockney; progress: 0 async, 1 none, 2 anycall */
  double nodes, P, C0, C1, n0, n1, t0, rinf, halo_s;
} Model;

static double Env(const char *name, double def)
{
  const char *s = getenv(name);

  return s && *s ? atof(s) : def;
}

static int CeilLog2(double x)
{
  int r = 0;

  while (ldexp(1.0, r) < x - 1e-9) r++;
  return r;
}

/* The model, read from the same environment variables as the library, with the defaults of its documentation */
static void ReadModel(Model *m)
{
  const char *s = getenv("CAKPMPI_MODEL"), *p = getenv("CAKPMPI_PROGRESS"), *h = getenv("CAKPMPI_HALO");
  double      rpn;

  m->model    = !s ? 0 : !strcmp(s, "krasnopolsky") ? 1 : !strcmp(s, "hockney") ? 2 : 0;
  m->progress = !p ? 0 : !strcmp(p, "none") ? 1 : !strcmp(p, "anycall") ? 2 : 0;
  m->nodes    = Env("CAKPMPI_NODES", 1024);
  rpn         = Env("CAKPMPI_RANKS_PER_NODE", 1);
  m->P        = Env("CAKPMPI_P", m->nodes * rpn);
  if (getenv("CAKPMPI_P") && !getenv("CAKPMPI_NODES")) m->nodes = fmax(1, m->P / rpn);
  m->C0   = Env("CAKPMPI_C0", 3.5e-6);
  m->C1   = Env("CAKPMPI_C1", 1.7e-6);
  m->n0   = Env("CAKPMPI_N0", 0.21);
  m->n1   = Env("CAKPMPI_N1", 0.54);
  m->t0   = Env("CAKPMPI_T0", 2e-6);
  m->rinf = Env("CAKPMPI_RINF", 1e10);
  m->R    = (int)Env("CAKPMPI_ROUNDS", 0);
  if (m->R <= 0) m->R = CeilLog2(m->P) > 0 ? CeilLog2(m->P) : 1;
  m->halo   = getenv("CAKPMPI_HALO_US") ? 1 : h && !strcmp(h, "krasnopolsky") ? 2 : 0;
  m->halo_s = Env("CAKPMPI_HALO_US", 0) * 1e-6;
}

static double TG(const Model *m, double l)
{
  if (m->model == 1) return m->C0 + m->C1 * pow(l, m->n0) * pow(m->nodes, m->n1);
  if (m->model == 2) return CeilLog2(m->P) * (m->t0 + l / m->rinf);
  return 0;
}

static double TL(const Model *m, double l)
{
  if (m->halo == 1) return m->halo_s;
  if (m->halo == 2) return l <= 2048 ? 2.4e-6 + 6.9e-8 * pow(l, 0.56) : 3.2e-6 + 2e-9 * l;
  return 0;
}

/* Completion of a non-blocking reduction started at 0, with MPI calls that progress it at the times tt[0..n) (after
   0, increasing), and the MPI_Wait at time w */
static double Predict(const Model *m, double T, const double *tt, int n, double w)
{
  double d = T / m->R, rs = 0, end;
  int    k = 1;

  if (m->progress == 0) return fmax(w, T);
  for (int j = 0; j < n; j++)
    if (k < m->R && tt[j] >= rs + d) k++, rs = tt[j];
  end = rs + d;
  if (k == m->R) return fmax(w, end);
  return fmax(w, end) + (m->R - k) * d;
}

static void SpinUntil(double t)
{
  while (MPI_Wtime() < t) { }
}

static int CompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double Median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof(double), CompareDouble);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double tol = 0.05;

/* median over reps per rank, maximum over ranks (MPI_Reduce: not delayed by the simulator); rank 0 prints */
static void Report(const char *name, double *pred, double *meas, int reps)
{
  double p = Median(pred, reps), q = Median(meas, reps), pq[2] = {p, q}, mx[2];
  int    ok;

  MPI_Reduce(pq, mx, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank) return;
  p = mx[0], q = mx[1];
  ok = p >= 10e-6 ? fabs(q - p) <= tol * p : fabs(q - p) <= 1e-6;
  if (ok) npass++;
  else nfail++;
  printf("%-4s %-66s %10.2f %10.2f %+8.2f%%\n", ok ? "ok" : "FAIL", name, 1e6 * p, 1e6 * q, p > 0 ? 100 * (q - p) / p : 0.0);
  fflush(stdout);
}

/* MPI_Iallreduce of l bytes + work W with n MPI_Test calls (on the request, or with `other` on an unrelated
   MPI_REQUEST_NULL) evenly spaced within it + MPI_Wait */
static void Overlap(const Model *m, double l, double W, int n, int other, double c, int reps, double *pred, double *meas, double *buf, double *out)
{
  double *tt = malloc(sizeof(double) * (n > 0 ? n : 1));
  char    name[128];

  for (int r = 0; r < reps; r++) {
    MPI_Request req, nul = MPI_REQUEST_NULL;
    int         flag;

    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    MPI_Iallreduce(buf, out, (int)(l / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    for (int j = 1; j <= n; j++) {
      SpinUntil(t0 + W * j / (n + 1));
      tt[j - 1] = MPI_Wtime() - t0;
      if (other) MPI_Test(&nul, &flag, MPI_STATUS_IGNORE);
      else MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    }
    SpinUntil(t0 + W);
    const double tw = MPI_Wtime() - t0;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    meas[r] = MPI_Wtime() - t0;
    /* the real reduction, when no MPI call on it progressed it during the work, still needs c in MPI_Wait */
    pred[r] = fmax(Predict(m, TG(m, l), tt, (other && m->progress != 2) ? 0 : n, tw), tw + (n && !other ? 0.0 : c));
  }
  if (n) snprintf(name, sizeof(name), "Iallreduce + W=%.3g T_G with %d %s + Wait, l=%g", W / TG(m, l), n, other ? "Test(other)" : "Test", l);
  else snprintf(name, sizeof(name), "Iallreduce + W=%.3g T_G + Wait, l=%g", W / TG(m, l), l);
  if (c > 0 && (!n || other) && W > 0) snprintf(name + strlen(name), sizeof(name) - strlen(name), " (+%.1f real)", 1e6 * c);
  Report(name, pred, meas, reps);
  free(tt);
}

/* "8:0.4,8192:5.4" -> real[] per bytes[] (microseconds -> seconds) */
static void ParseReal(const char *s, int nb, const int *bytes, double *real)
{
  while (s && *s) {
    char  *end;
    long   l = strtol(s, &end, 10);
    double c;

    if (*end != ':') break;
    c = strtod(end + 1, &end);
    for (int b = 0; b < nb; b++)
      if (bytes[b] == l) real[b] = 1e-6 * c;
    s = *end == ',' ? end + 1 : NULL;
  }
}

static int Timing(int argc, char **argv)
{
  Model       m;
  int         reps = 20, nb = 0, bytes[16], realmode = !strcmp(argv[1], "real");
  double     *buf, *out, *pred, *meas, real[16] = {0};
  const char *reals = NULL;

  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "-reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-tol") && i + 1 < argc) tol = atof(argv[++i]);
    else if (!strcmp(argv[i], "-real") && i + 1 < argc) reals = argv[++i];
    else if (!strcmp(argv[i], "-bytes") && i + 1 < argc) {
      char *s = argv[++i], *end;

      while (*s && nb < 16) {
        bytes[nb++] = (int)strtol(s, &end, 10);
        s           = *end == ',' ? end + 1 : end;
        if (end == s && *s) break;
      }
    } else {
      if (!rank) fprintf(stderr, "validate timing: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (!nb) bytes[nb++] = 8;
  if (reps < 1) reps = 1;
  ReadModel(&m);
  ParseReal(reals, nb, bytes, real);
  buf  = calloc(65536, sizeof(double));
  out  = calloc(65536, sizeof(double));
  pred = malloc(sizeof(double) * reps);
  meas = malloc(sizeof(double) * reps);
  if (realmode) { /* the real cost left for MPI_Wait when nothing progressed the reduction during the work */
    if (m.model || m.halo) {
      if (!rank) fprintf(stderr, "validate real: run without CAKPMPI_MODEL and CAKPMPI_HALO(_US)\n");
      return 2;
    }
    for (int b = 0; b < nb; b++) {
      double med, mx;

      for (int r = 0; r < reps; r++) {
        MPI_Request req;

        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        MPI_Iallreduce(buf, out, bytes[b] / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
        SpinUntil(t0 + 50e-6);
        const double tw = MPI_Wtime();
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        meas[r] = MPI_Wtime() - tw;
      }
      med = Median(meas, reps);
      MPI_Reduce(&med, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      if (!rank) printf("%s%d:%.2f", b ? "," : "", bytes[b], 1e6 * mx);
    }
    if (!rank) printf("\n");
    free(buf), free(out), free(pred), free(meas);
    return 0;
  }
  if (!rank) {
    printf("model %s, progress %s, p = %g nodes, P = %g ranks, R = %d rounds%s; times in us, median of %d, max over %d ranks\n",
           m.model == 1   ? "krasnopolsky"
           : m.model == 2 ? "hockney"
                          : "none",
           m.progress == 0   ? "async"
           : m.progress == 1 ? "none"
                             : "anycall",
           m.nodes, m.P, m.R, m.halo ? ", halo receives delayed" : "", reps, size);
    printf("%-4s %-66s %10s %10s %9s\n", "", "case", "model", "measured", "error");
  }
  for (int b = 0; m.model && b < nb; b++) {
    const double l = bytes[b], T = TG(&m, l);
    const int    count = bytes[b] / 8;
    char         name[128];

    if (count < 1 || count > 65536) continue;
    for (int r = 0; r < reps; r++) { /* blocking */
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      MPI_Allreduce(buf, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      meas[r] = MPI_Wtime() - t0;
      pred[r] = T;
    }
    snprintf(name, sizeof(name), "Allreduce, l=%g", l);
    Report(name, pred, meas, reps);
    Overlap(&m, l, 0, 0, 0, real[b], reps, pred, meas, buf, out);           /* Iallreduce + Wait */
    Overlap(&m, l, 0.5 * T, 0, 0, real[b], reps, pred, meas, buf, out);     /* half hidden (async), 1 round (none) */
    Overlap(&m, l, 2 * T, 0, 0, real[b], reps, pred, meas, buf, out);       /* hidden (async), 1 round (none) */
    Overlap(&m, l, 2 * T, 3 * m.R, 0, real[b], reps, pred, meas, buf, out); /* tests every 2/3 round: all hidden */
    Overlap(&m, l, T, 4 * m.R, 0, real[b], reps, pred, meas, buf, out);     /* tests every 1/4 round: ~ T_G (1 + 1/8) */
    Overlap(&m, l, 2 * T, 3 * m.R, 1, real[b], reps, pred, meas, buf, out); /* unrelated calls: progress only with anycall */
  }
  if (m.halo) { /* halo receives: complete no earlier than posting + T_L */
    const int    left = (rank + size - 1) % size, right = (rank + 1) % size, count = 512;
    const double T = TL(&m, 8.0 * count);
    MPI_Request  rq[2];

    for (int r = 0; r < reps; r++) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      MPI_Irecv(out, count, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &rq[0]);
      MPI_Isend(buf, count, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &rq[1]);
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
      meas[r] = MPI_Wtime() - t0;
      pred[r] = T;
    }
    Report("halo: Irecv+Isend+Waitall, 4096 bytes", pred, meas, reps);
    MPI_Recv_init(out, count, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, &rq[0]);
    MPI_Send_init(buf, count, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, &rq[1]);
    for (int r = 0; r < reps; r++) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      MPI_Startall(2, rq);
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
      meas[r] = MPI_Wtime() - t0;
      pred[r] = T;
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    Report("halo: persistent Startall+Waitall, 4096 bytes", pred, meas, reps);
    for (int r = 0; r < reps; r++) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      MPI_Sendrecv(buf, count, MPI_DOUBLE, right, 7, out, count, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      meas[r] = MPI_Wtime() - t0;
      pred[r] = T;
    }
    Report("halo: Sendrecv, 4096 bytes", pred, meas, reps);
  }
  free(buf), free(out), free(pred), free(meas);
  if (!rank) printf("timing: %d ok, %d FAILED\n", npass, nfail);
  return nfail ? 1 : 0;
}

int main(int argc, char **argv)
{
  int status = 2;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (!rank) fprintf(stderr, "validate: run on 2 or more ranks\n");
  } else if (argc >= 2 && !strcmp(argv[1], "counts")) status = Counts();
  else if (argc >= 2 && (!strcmp(argv[1], "timing") || !strcmp(argv[1], "real"))) status = Timing(argc, argv);
  else if (!rank) fprintf(stderr, "usage: validate counts | validate timing [-bytes 8,64] [-reps 20] [-tol 0.05] [-real 8:0.4,...] | validate real [-bytes 8,64]\n");
  MPI_Finalize();
  return status;
}
