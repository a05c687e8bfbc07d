# median(a, k): the median of a[1..k], for the benchmark scripts' awk programs (awk -f median.awk -f PROGRAM);
# sorts a[1..k] in place (insertion sort: k is a few rounds or runs)
function median(a, k,   i, j, x) {
  for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
  return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
