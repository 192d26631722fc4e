/* Buggy twin of seq_max.c: the largest entry of an array, with CIVL-C annotations (tass reads them;
   gcc compiles the #else branch, where the inputs have concrete values). */
#include <assert.h>
#ifdef _CIVL
#include <civlc.cvh>
$input int NB;
$input int N;
$assume(1 <= N && N <= NB);
$input double a[N];
$output double largest;
#else
#define $assert(cond, ...) assert(cond)
#define N 3
double a[N] = {-3.0, -1.0, -2.0};
double largest;
#endif

int main(void) {
  double m = 0.0; /* bug: 0 is not an entry when all are negative */
  for (int i = 1; i < N; i++) {
    if (a[i] > m) {
      m = a[i];
    }
  }
  largest = m;
#ifdef _CIVL
  $assert($forall (int k : 0 .. N - 1) a[k] <= largest);
  $assert($exists (int k | 0 <= k && k < N) a[k] == largest, "largest is not an entry");
#else
  /* the same claims in plain C, for the concrete run */
  int found = 0;
  for (int k = 0; k < N; k++) {
    assert(a[k] <= largest);
    if (a[k] == largest) {
      found = 1;
    }
  }
  assert(found);
#endif
  $assert(largest >= a[0], "largest %f < a[0]", largest);
  return 0;
}
