/* fevs/mpi/mpi_dt_struct_uncommitted_bad.c -- MPI_Type_create_struct of one basic
 * datatype: a record of one int and a pair of ints, described by two blocks
 * at byte displacements 0 and sizeof(int). Rank 0 sends two records of
 * it; rank 1 receives them once as two records and once as six MPI_INT (the
 * same type signature), and checks the values. The datatype is never
 * committed.
 *
 * Expected verdict: tass verify -n 2 mpi_dt_struct_uncommitted_bad.c: violated,
 * mpi-type (line 28). mpirun -np 2 (default and zero-buffer): MPI_ERR_TYPE
 * (invalid datatype) in MPI_Recv, the job aborts.
 */
#include <mpi.h>
#include <assert.h>

int main(int argc, char *argv[]) {
    int rank, rec[6], flat[6];
    int lengths[2] = {1, 2};
    MPI_Aint displs[2] = {0, sizeof(int)};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT}, record;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, lengths, displs, types, &record);
    /* (no MPI_Type_commit(&record)) */
    if (rank == 0) {
        for (int i = 0; i < 6; i++)
            rec[i] = 10 * i;
        /* BUG: `record` is used uncommitted */
        MPI_Send(rec, 2, record, 1, 0, MPI_COMM_WORLD);
        MPI_Send(rec, 2, record, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(rec, 2, record, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(flat, 6, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 6; i++)
            assert(rec[i] == 10 * i && flat[i] == rec[i]);
    }
    MPI_Type_free(&record);
    MPI_Finalize();
    return 0;
}
