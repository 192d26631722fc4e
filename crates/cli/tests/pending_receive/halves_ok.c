/* Each process receives into one half of its array while it sends from and
 * writes the other half: a halo exchange in miniature. */
#include <mpi.h>
#include <assert.h>

#define N 4

int main(int argc, char *argv[]) {
    int rank, size, a[2 * N], k;
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = (rank + 1) % size;
    MPI_Irecv(&a[N], N, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[0]);
    for (k = 0; k < N; k++)
        a[k] = rank * 10 + k;
    MPI_Isend(&a[0], N, MPI_INT, peer, 0, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    for (k = 0; k < N; k++)
        a[k] = a[N + k];
    assert(a[0] % 10 == 0);
    MPI_Finalize();
    return 0;
}
