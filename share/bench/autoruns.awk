# autobcgs run by run in bench-auto's bottom study (share/bench/auto.sh): from the rows of every run
# (auto-bottom-runs.csv, share/bench/bottom.sh's BOTTOM_RUNS_CSV) at each point, the fastest fixed candidate by the
# median of its runs' bottom-solve times (candidates: the types autobcgs chooses from; bcgs, the baseline, is none),
# each autobcgs run's time over that median with the type it chose, autobcgs's median over it, and paired: the median
# over the runs of autobcgs's time over that candidate's in the same run (bottom.sh alternates the variants run by run:
# the r-th rows of both are back to back), which cancels a drift of the machine during the point.
#   awk -F, -v candidates="bcgsm rbicgstab pipebcgsm cabicgstab" -f median.awk -f autoruns.awk auto-bottom-runs.csv
BEGIN { nc = split(candidates, cand, " ") }
NR > 1 {
  key = $1 "," $2
  if (!(key in seen)) { seen[key] = 1; order[++np] = key }
  if ($3 == "autobcgs") { na[key]++; ta[key, na[key]] = $8; chosen = $12; sub(/ \(.*/, "", chosen); ch[key, na[key]] = chosen }
  else { nf[key, $3]++; tf[key, $3, nf[key, $3]] = $8 }
}
END {
  printf "%6s | %-28s | %s\n", "p", "fastest candidate, median s", "autobcgs: each run / that median (the type it chose) | its median / that median | paired"
  for (i = 1; i <= np; i++) {
    key = order[i]; best = ""; split(key, kk, ",")
    for (c = 1; c <= nc; c++) {
      if (!nf[key, cand[c]]) continue
      for (r = 1; r <= nf[key, cand[c]]; r++) x[r] = tf[key, cand[c], r]
      m = median(x, nf[key, cand[c]])
      if (best == "" || m < bm) { best = cand[c]; bm = m }
    }
    printf "%6s | %-12s %15.4g |", kk[1] == 0 ? "here" : kk[1], best, bm
    for (r = 1; r <= na[key]; r++) {
      q = ta[key, r] / bm; y[r] = ta[key, r]
      printf " %.2fx (%s)", q, ch[key, r]
      nrun++; within += q <= 1.10; if (q > worst) worst = q
    }
    qm = median(y, na[key]) / bm
    for (r = 1; r <= na[key]; r++) z[r] = ta[key, r] / tf[key, best, r] # run r of both: back to back
    qp = median(z, na[key]); printf " | %.2fx | %.2fx\n", qm, qp
    npt++; withinm += qm <= 1.10; if (qm > worstm) worstm = qm
    withinp += qp <= 1.10; if (qp > worstp) worstp = qp
  }
  printf "autobcgs runs within 10 %% of the fastest candidate's median: %d of %d, worst %.2fx; its median within 10 %%: %d of %d points, worst %.2fx; paired within 10 %%: %d of %d points, worst %.2fx\n", within, nrun, worst, withinm, npt, worstm, withinp, npt, worstp
}
