/* Sum of an array: the sequential specification (after the paper's Fig. 3a). */
#pragma TASS input int
#define B 10
#pragma TASS input {n >= 0 && n <= B} int
#define n 10
#pragma TASS input
double a[n];
#pragma TASS output
double sum;

void main() {
    double total = 0.0;
    int k;
    for (k = 0; k < n; k++)
        total += a[k];
    sum = total;
}
