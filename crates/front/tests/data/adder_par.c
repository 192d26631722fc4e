/* Sum of an array: the MPI implementation (after the paper's Fig. 3b).
 * Every process adds up its own block of a; rank 0 collects the partial sums. */
#include <mpi.h>
#pragma TASS input int
#define B 10
#pragma TASS input {n >= 0 && n <= B} int
#define n 10
#pragma TASS input
double a[n];
#pragma TASS output
double sum;
int rank, size;
double partial = 0.0;

double collect(void) {
    double acc = partial, incoming;
    int src;
    for (src = 1; src < size; src++) {
        MPI_Recv(&incoming, 1, MPI_DOUBLE, src, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        acc += incoming;
    }
    return acc;
}

void main() {
    int argc;
    char **argv;
    int lo, hi, k;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    lo = n * rank / size;
    hi = n * (rank + 1) / size;
    for (k = lo; k < hi; k++)
        partial += a[k];
    if (rank == 0)
        sum = collect();
    else
        MPI_Send(&partial, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    MPI_Finalize();
}
