/* fevs/mpi/mpi_p2p_irecv_overlap_ok.c -- a ring shift of halo cells that
 * overlaps communication with computation: each rank posts a receive into the
 * ghost cell u[0] and sends its last interior cell, computes on the interior
 * cells u[1..N] while both are pending, and reads the ghost cell only after
 * the wait.  The interior cells are outside the receive's extent, so the
 * computation is allowed (MPI 4.1 3.7.2 forbids access to the receive buffer
 * only).
 *
 * Expected verdict: tass verify -n 3 mpi_p2p_irecv_overlap_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 1
#define N 3

int main(int argc, char *argv[]) {
    int rank, size, i, left, right;
    int u[N + 1];
    MPI_Request req[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    u[0] = -1;
    for (i = 1; i <= N; i++)
        u[i] = X + rank * N + i;
    MPI_Irecv(&u[0], 1, MPI_INT, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&u[N], 1, MPI_INT, right, 0, MPI_COMM_WORLD, &req[1]);
    for (i = 1; i < N; i++)
        u[i] = u[i] + u[i + 1];
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    u[N] = u[N] + u[0];
    assert(u[0] == X + left * N + N);
    MPI_Finalize();
    return 0;
}
