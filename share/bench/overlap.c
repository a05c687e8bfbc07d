/*
   Overlap micro-benchmark: can a non-blocking MPI_Iallreduce be hidden behind local work on this MPI, with and
   without manual progression (MPI_Test between chunks of the work)? Krasnopolsky, "Revisiting performance of
   BiCGStab methods for solving systems with multiple right-hand sides" (CAMWA 79, 2020), Appendix C, Figure 13:

     mode #1  MPI_Allreduce; work                                   (blocking: the reference)
     mode #2  MPI_Iallreduce; work; MPI_Wait                        (overlap left to the MPI library)
     mode #3  MPI_Iallreduce; work with MPI_Test after each of N_it chunks; MPI_Wait   (manual progression)

   plus the reduction alone (MPI_Allreduce) and the work alone. The work is N_it chunks of a daxpy over one local
   array (y += a x): the total fixed while N_it varies, so only the number of MPI_Test calls changes. By default its
   size is calibrated at start so that the work takes about as long as one blocking reduction of each message size
   (the paper balances them the same way); -work_us sets it instead.

   Every repetition starts with MPI_Barrier; each rank times its phases with MPI_Wtime; a repetition's time is the
   maximum over the ranks (the slowest rank is what a solver waits for), and the reported time is the median over
   reps x rounds repetitions (the modes are interleaved repetition by repetition, so drifts hit them alike).
   T_comm is the time inside MPI calls of the reduction (MPI_Allreduce; MPI_Iallreduce + MPI_Wait), T_calc the time
   of the work loop (with its MPI_Test calls in mode #3). The overlap overhead is the paper's eq. (9)/(24),

     gamma_i = (T_calc#i + T_comm#i - T_calc#1) / T_comm#1

   gamma = 1: no overlap (as blocking), 0: the reduction completely hidden, > 1: worse than blocking (e.g. the
   tests slow the work down more than they save).

   Pure MPI (no PETSc): mpicc overlap.c -o overlap; mpiexec -n 2 ./overlap [options]; ./overlap -help.
*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXLIST 16
#define NMODES  5 /* the timed kinds of repetition, in this order: */
enum {
  WORK_ALONE,
  REDUCTION_ALONE,
  MODE1,
  MODE2,
  MODE3
};

typedef struct {
  int    reps, rounds, nnit, nmsg, append;
  int    nit[MAXLIST], msg[MAXLIST];
  double work_us; /* <= 0: calibrate to the reduction time of each message size */
  char   csv[4096];
} Options;

static const char usage[] = "Overlap micro-benchmark (Krasnopolsky, Appendix C): blocking MPI_Allreduce then work (#1), MPI_Iallreduce\n\
overlapped with the work (#2), and the same with MPI_Test after each of N_it work chunks (#3); overlap overhead gamma\n\
(eq. 9/24: 1 = no overlap, 0 = reduction fully hidden).\n\
  -reps <200>                 repetitions per case and round (each after an MPI_Barrier)\n\
  -rounds <5>                 rounds (the cases are run once per round, interleaved)\n\
  -nit <10,20,30,50,100>      numbers of work chunks (= MPI_Test calls in mode #3); the total work stays fixed\n\
  -msg <8,64,512,8192>        message sizes in bytes (doubles, MPI_SUM)\n\
  -work_us <t>                total work per repetition in microseconds (default: calibrated to the blocking\n\
                              MPI_Allreduce time of each message size)\n\
  -csv <file>                 also write the results as CSV (times in microseconds); -csv_append: append, no header\n";

static int ParseList(const char *s, int list[])
{
  int   n = 0;
  char *end;

  while (*s && n < MAXLIST) {
    long v = strtol(s, &end, 10);

    if (end == s || v <= 0) return -1;
    list[n++] = (int)v;
    s         = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return -1;
  }
  return n;
}

static int ParseOptions(int argc, char **argv, Options *o, int rank)
{
  o->reps    = 200;
  o->rounds  = 5;
  o->work_us = 0;
  o->append  = 0;
  o->csv[0]  = 0;
  o->nnit    = ParseList("10,20,30,50,100", o->nit);
  o->nmsg    = ParseList("8,64,512,8192", o->msg);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int         ok = 1;

    if (!strcmp(a, "-help") || !strcmp(a, "--help")) {
      if (!rank) printf("%s", usage);
      return 1;
    } else if (!strcmp(a, "-csv_append")) o->append = 1;
    else if (!v) ok = 0;
    else if (!strcmp(a, "-reps")) ok = (o->reps = atoi(v)) > 0, i++;
    else if (!strcmp(a, "-rounds")) ok = (o->rounds = atoi(v)) > 0, i++;
    else if (!strcmp(a, "-work_us")) ok = (o->work_us = atof(v)) > 0, i++;
    else if (!strcmp(a, "-nit")) ok = (o->nnit = ParseList(v, o->nit)) > 0, i++;
    else if (!strcmp(a, "-msg")) {
      ok = (o->nmsg = ParseList(v, o->msg)) > 0, i++;
      for (int k = 0; ok && k < o->nmsg; k++) ok = o->msg[k] % 8 == 0;
    } else if (!strcmp(a, "-csv")) ok = strlen(v) < sizeof(o->csv), strncpy(o->csv, v, sizeof(o->csv) - 1), i++;
    else ok = 0;
    if (!ok) {
      if (!rank) fprintf(stderr, "overlap: bad or unknown option %s%s%s (message sizes: multiples of 8 bytes)\n%s", a, v ? " " : "", v ? v : "", usage);
      return 2;
    }
  }
  return 0;
}

/* The work: y[lo..hi) += a x[lo..hi). Not inlined, so every mode runs the same code on the same chunks. */
static void __attribute__((noinline)) Work(int lo, int hi, double a, const double *restrict x, double *restrict y)
{
  for (int i = lo; i < hi; i++) y[i] += a * x[i];
}

static int CompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double Median(double *v, int n) /* sorts v */
{
  qsort(v, (size_t)n, sizeof(double), CompareDouble);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Median over reps of the maximum over ranks of the blocking MPI_Allreduce time of count doubles */
static double ReductionTime(int count, int reps, double *sbuf, double *rbuf, double *t)
{
  double m;

  for (int r = 0; r < reps; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    MPI_Allreduce(sbuf, rbuf, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    t[r] = MPI_Wtime() - t0;
  }
  MPI_Allreduce(MPI_IN_PLACE, t, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  m = Median(t, reps);
  return m;
}

/* Median over reps of the maximum over ranks of the work over n entries in one chunk */
/* Chunk c of nit of the work on n elements */
static void WorkChunk(int c, int nit, int n, double a, const double *restrict x, double *restrict y)
{
  Work((int)((long)c * n / nit), (int)((long)(c + 1) * n / nit), a, x, y);
}

static double WorkTime(int n, int reps, const double *x, double *y, double *t)
{
  for (int r = 0; r < reps; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    Work(0, n, 1e-9, x, y);
    t[r] = MPI_Wtime() - t0;
  }
  MPI_Allreduce(MPI_IN_PLACE, t, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return Median(t, reps);
}

int main(int argc, char **argv)
{
  Options  o;
  int      rank, size, status, maxcount = 0, maxnit = 0, maxlen = 0, nsamples, len[MAXLIST];
  double   target[MAXLIST], tred[MAXLIST], *x, *y, *sbuf, *rbuf, *t;
  double  *comm, *calc, *done; /* [msg][nit][mode][sample] */
  char     host[MPI_MAX_PROCESSOR_NAME];
  int      hostlen, nodesize, maxnodesize, cores, over;
  MPI_Comm node;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_processor_name(host, &hostlen);
  /* more ranks on a node than it has cores: then the times measure the OS scheduler as much as the MPI library */
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &nodesize);
  MPI_Comm_free(&node);
  cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  over  = nodesize > cores;
  MPI_Allreduce(MPI_IN_PLACE, &over, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&nodesize, &maxnodesize, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  status = ParseOptions(argc, argv, &o, rank);
  if (status) {
    MPI_Finalize();
    return status == 1 ? 0 : 1;
  }
  for (int m = 0; m < o.nmsg; m++)
    if (o.msg[m] / 8 > maxcount) maxcount = o.msg[m] / 8;
  for (int k = 0; k < o.nnit; k++)
    if (o.nit[k] > maxnit) maxnit = o.nit[k];
  nsamples = o.reps * o.rounds;
  sbuf     = malloc(sizeof(double) * maxcount);
  rbuf     = malloc(sizeof(double) * maxcount);
  t        = malloc(sizeof(double) * (nsamples > 1000 ? nsamples : 1000));
  for (int i = 0; i < maxcount; i++) sbuf[i] = rank + i;

  /* Calibration: the blocking reduction time of each size, the work's time per entry, then the work length that
     takes the target time (refined once on the real length); rank 0's lengths for all ranks */
  {
    const int n0 = 4096;
    double    per, *x0 = malloc(sizeof(double) * n0), *y0 = malloc(sizeof(double) * n0);

    for (int i = 0; i < n0; i++) x0[i] = 1.0, y0[i] = 0.0;
    for (int m = 0; m < o.nmsg; m++) {
      tred[m]   = ReductionTime(o.msg[m] / 8, 1000, sbuf, rbuf, t);
      target[m] = o.work_us > 0 ? o.work_us * 1e-6 : tred[m];
    }
    per = WorkTime(n0, 1000, x0, y0, t) / n0;
    for (int m = 0; m < o.nmsg; m++) {
      len[m] = (int)(target[m] / per);
      if (len[m] < 4 * maxnit) len[m] = 4 * maxnit; /* a few entries per chunk at least */
    }
    free(x0);
    free(y0);
    for (int m = 0; m < o.nmsg; m++)
      if (len[m] > maxlen) maxlen = len[m];
    x = malloc(sizeof(double) * maxlen);
    y = malloc(sizeof(double) * maxlen);
    for (int i = 0; i < maxlen; i++) x[i] = 1.0, y[i] = 0.0;
    for (int pass = 0; pass < 2; pass++) { /* refine twice on the real length (cache level and all), after a warm-up */
      for (int m = 0; m < o.nmsg; m++) {
        double tw;
        int    nl;

        (void)WorkTime(len[m], 50, x, y, t);
        tw = WorkTime(len[m], 200, x, y, t);
        nl = (int)(len[m] * target[m] / tw);
        if (nl > maxlen) { /* grow the arrays */
          maxlen = nl;
          x      = realloc(x, sizeof(double) * maxlen);
          y      = realloc(y, sizeof(double) * maxlen);
          for (int i = 0; i < maxlen; i++) x[i] = 1.0, y[i] = 0.0;
        }
        len[m] = nl > 4 * maxnit ? nl : 4 * maxnit;
      }
    }
    MPI_Bcast(len, o.nmsg, MPI_INT, 0, MPI_COMM_WORLD);
    maxlen = 0;
    for (int m = 0; m < o.nmsg; m++)
      if (len[m] > maxlen) maxlen = len[m];
    x = realloc(x, sizeof(double) * maxlen);
    y = realloc(y, sizeof(double) * maxlen);
    for (int i = 0; i < maxlen; i++) x[i] = 1.0, y[i] = 0.0;
  }

  /* The measurement */
  {
    const size_t ncase = (size_t)o.nmsg * o.nnit;

    comm = calloc(ncase * NMODES * nsamples, sizeof(double));
    calc = calloc(ncase * NMODES * nsamples, sizeof(double));
    done = calloc(ncase * nsamples, sizeof(double));
    if (!comm || !calc || !done || !x || !y || !sbuf || !rbuf || !t) {
      fprintf(stderr, "overlap: out of memory\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  for (int round = 0; round < o.rounds; round++) {
    for (int m = 0; m < o.nmsg; m++) {
      const int count = o.msg[m] / 8, n = len[m];

      for (int k = 0; k < o.nnit; k++) {
        const int    nit  = o.nit[k];
        const size_t base = ((size_t)m * o.nnit + k) * NMODES * nsamples;

        for (int r = 0; r < o.reps; r++) {
          const int s = round * o.reps + r;

          for (int mode = 0; mode < NMODES; mode++) {
            const size_t at = base + mode * nsamples + s; /* this sample of this mode */
            const double a  = (r % 2 ? -1e-9 : 1e-9);     /* y stays bounded */
            MPI_Request  req;
            double       t0, t1, t2, t3;
            int          flag = 0, tests = 0;

            MPI_Barrier(MPI_COMM_WORLD);
            switch (mode) {
            case WORK_ALONE:
              t0 = MPI_Wtime();
              for (int c = 0; c < nit; c++) WorkChunk(c, nit, n, a, x, y);
              calc[at] = MPI_Wtime() - t0;
              break;
            case REDUCTION_ALONE:
              t0 = MPI_Wtime();
              MPI_Allreduce(sbuf, rbuf, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
              comm[at] = MPI_Wtime() - t0;
              break;
            case MODE1:
              t0 = MPI_Wtime();
              MPI_Allreduce(sbuf, rbuf, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
              t1 = MPI_Wtime();
              for (int c = 0; c < nit; c++) WorkChunk(c, nit, n, a, x, y);
              t2       = MPI_Wtime();
              comm[at] = t1 - t0;
              calc[at] = t2 - t1;
              break;
            case MODE2: /* no progression during the work */
            case MODE3: /* MPI_Test after each chunk until the reduction is complete */
              t0 = MPI_Wtime();
              MPI_Iallreduce(sbuf, rbuf, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
              t1 = MPI_Wtime();
              for (int c = 0; c < nit; c++) {
                WorkChunk(c, nit, n, a, x, y);
                if (mode == MODE3 && !flag) { /* once complete, the request is MPI_REQUEST_NULL: no more tests */
                  MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
                  tests++;
                }
              }
              t2 = MPI_Wtime();
              MPI_Wait(&req, MPI_STATUS_IGNORE);
              t3       = MPI_Wtime();
              comm[at] = (t1 - t0) + (t3 - t2);
              calc[at] = t2 - t1;
              /* the test that found the reduction complete, as a fraction of the work (2: not during the work) */
              if (mode == MODE3) done[((size_t)m * o.nnit + k) * nsamples + s] = flag ? (double)tests / nit : 2.0;
              break;
            }
          }
        }
      }
    }
  }

  /* Maximum over the ranks per repetition, then medians on rank 0 */
  {
    const size_t ntot  = (size_t)o.nmsg * o.nnit * NMODES * nsamples;
    const size_t chunk = 1 << 20;

    for (size_t off = 0; off < ntot; off += chunk) {
      const int cnt = (int)(ntot - off < chunk ? ntot - off : chunk);

      MPI_Reduce(rank ? comm + off : MPI_IN_PLACE, comm + off, cnt, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      MPI_Reduce(rank ? calc + off : MPI_IN_PLACE, calc + off, cnt, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    }
    for (size_t off = 0; off < (size_t)o.nmsg * o.nnit * nsamples; off += chunk) {
      const size_t nd  = (size_t)o.nmsg * o.nnit * nsamples;
      const int    cnt = (int)(nd - off < chunk ? nd - off : chunk);

      MPI_Reduce(rank ? done + off : MPI_IN_PLACE, done + off, cnt, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    }
  }
  if (!rank) {
    FILE  *csv = NULL;
    double best3[MAXLIST], best3nit[MAXLIST], g2mean[MAXLIST];

    if (o.csv[0]) {
      csv = fopen(o.csv, o.append ? "a" : "w");
      if (!csv) fprintf(stderr, "overlap: cannot write %s\n", o.csv);
      else if (!o.append) fprintf(csv, "ranks,oversubscribed,msg_bytes,n_it,work_entries,reps,rounds,reduction_alone_us,work_alone_us,m1_comm_us,m1_calc_us,m2_comm_us,m2_calc_us,m3_comm_us,m3_calc_us,gamma2,gamma3,m3_done_fraction\n");
    }
    printf("Overlap benchmark (Krasnopolsky, Appendix C): %d ranks on %s, %d reps x %d rounds per case, median of the per-repetition maximum over ranks\n", size, host, o.reps, o.rounds);
    if (over) printf("WARNING: OVERSUBSCRIBED, up to %d ranks on a node with %d cores: ranks wait for the OS scheduler, the times measure it as much as MPI\n", maxnodesize, cores);
    printf("work: daxpy over one local array of the length below, in N_it chunks; %s\n", o.work_us > 0 ? "its size set by -work_us" : "its size calibrated to the blocking MPI_Allreduce time of each message size");
    printf("times in microseconds; #1 blocking MPI_Allreduce then work, #2 MPI_Iallreduce + work + MPI_Wait, #3 as #2 with MPI_Test after each chunk\n");
    printf("comm = time inside the reduction's MPI calls, calc = the work loop (#3: with its MPI_Test calls); gamma = (calc#i + comm#i - calc#1) / comm#1\n");
    printf("(1: no overlap, 0: fully hidden); done = median fraction of the work after which MPI_Test found the reduction complete (-: not during the work)\n\n");
    printf("%6s %5s %8s | %8s %8s | %8s %8s | %8s %8s %6s | %8s %8s %6s %5s\n", "msg(B)", "N_it", "entries", "red.alone", "work", "#1 comm", "#1 calc", "#2 comm", "#2 calc", "gamma2", "#3 comm", "#3 calc", "gamma3", "done");
    for (int m = 0; m < o.nmsg; m++) {
      best3[m]  = 1e300;
      g2mean[m] = 0;
      for (int k = 0; k < o.nnit; k++) {
        const size_t base = ((size_t)m * o.nnit + k) * NMODES * nsamples;
        double       med[2][NMODES], g2, g3, df;

        for (int mode = 0; mode < NMODES; mode++) {
          med[0][mode] = Median(comm + base + mode * nsamples, nsamples) * 1e6;
          med[1][mode] = Median(calc + base + mode * nsamples, nsamples) * 1e6;
        }
        df = Median(done + ((size_t)m * o.nnit + k) * nsamples, nsamples);
        g2 = (med[1][MODE2] + med[0][MODE2] - med[1][MODE1]) / med[0][MODE1];
        g3 = (med[1][MODE3] + med[0][MODE3] - med[1][MODE1]) / med[0][MODE1];
        g2mean[m] += g2 / o.nnit;
        if (g3 < best3[m]) best3[m] = g3, best3nit[m] = o.nit[k];
        printf("%6d %5d %8d | %8.2f %8.2f | %8.2f %8.2f | %8.2f %8.2f %6.2f | %8.2f %8.2f %6.2f ", o.msg[m], o.nit[k], len[m], med[0][REDUCTION_ALONE], med[1][WORK_ALONE], med[0][MODE1], med[1][MODE1], med[0][MODE2], med[1][MODE2], g2, med[0][MODE3], med[1][MODE3], g3);
        if (df <= 1.0) printf("%5.2f\n", df);
        else printf("%5s\n", "-");
        if (csv)
          fprintf(csv, "%d,%d,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", size, over, o.msg[m], o.nit[k], len[m], o.reps, o.rounds, med[0][REDUCTION_ALONE], med[1][WORK_ALONE], med[0][MODE1], med[1][MODE1], med[0][MODE2], med[1][MODE2], med[0][MODE3], med[1][MODE3], g2, g3, df <= 1.0 ? df : -1.0);
      }
    }
    printf("\nsummary, %d ranks%s:\n", size, over ? " (OVERSUBSCRIBED: scheduler noise, not the MPI library's overlap)" : "");
    for (int m = 0; m < o.nmsg; m++)
      printf("  %5d B: #2 (no progression) gamma %.2f on average over N_it; #3 (MPI_Test) best gamma %.2f at N_it = %d: %s\n", o.msg[m], g2mean[m], best3[m], (int)best3nit[m], best3[m] < 0.5 ? "most of the reduction hidden, hiding pays" : (best3[m] < 0.9 ? "partly hidden" : "not hidden"));
    if (csv) fclose(csv);
  }
  free(comm);
  free(calc);
  free(done);
  free(x);
  free(y);
  free(sbuf);
  free(rbuf);
  free(t);
  MPI_Finalize();
  return 0;
}
