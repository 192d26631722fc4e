#include <mpi.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
#pragma TASS output
int total;
int main(int argc, char *argv[]) {
    int rank, i = 0, x = 0, one = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS joint invariant L i == spec.i && x == spec.x
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP L %d i=%d x=%d\n", rank, i, x);
#endif
        /* every process adds its 1: x grows by the number of processes */
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        x += sum;
        i++;
    }
#ifdef CONCRETE
    printf("SNAP L %d i=%d x=%d\n", rank, i, x);
#endif
    total = x;
#ifdef CONCRETE
    if (rank == 0)
        printf("OUT total=%d\n", total);
#endif
    MPI_Finalize();
    return 0;
}
