/* Receives completed by MPI_Test (polled), MPI_Testall and MPI_Waitany;
 * each buffer is accessed only after the call that completed it. */
#include <mpi.h>
#include <assert.h>

int main(int argc, char *argv[]) {
    int rank, a = 0, b[2] = {0, 0}, c = 0, flag = 0, index;
    int v[4] = {1, 2, 3, 4};
    MPI_Request r, rs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&v[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(&v[1], 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&v[2], 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Send(&v[3], 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        a = a + 10;
        MPI_Irecv(&b[0], 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &rs[0]);
        MPI_Irecv(&b[1], 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &rs[1]);
        flag = 0;
        while (!flag)
            MPI_Testall(2, rs, &flag, MPI_STATUSES_IGNORE);
        b[0] = b[0] + b[1];
        MPI_Irecv(&c, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &r);
        MPI_Waitany(1, &r, &index, MPI_STATUS_IGNORE);
        c = c + 1;
        assert(a == 11 && b[0] == 5 && c == 5);
    }
    MPI_Finalize();
    return 0;
}
