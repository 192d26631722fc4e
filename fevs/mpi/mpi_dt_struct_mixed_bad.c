/* fevs/mpi/mpi_dt_struct_mixed_bad.c -- a struct datatype of type
 * signature {int, double} received as {double, int}. Rank 0 sends a C
 * struct {int id; double value;} described by MPI_INT and MPI_DOUBLE at its
 * offsetof displacements; rank 1 receives it into a struct {double value;
 * int id;} described by MPI_DOUBLE and MPI_INT. MPI requires the type
 * signatures to match (MPI 4.1, 3.3.1): the BUG is the receive.
 *
 * Expected verdict: tass verify -n 2 mpi_dt_struct_mixed_bad.c: violated
 * (mpi-type, line 48). mpirun -np 2 (default and zero-buffer, ASan+UBSan):
 * Open MPI does not check signatures; it unpacks the 12 bytes sent as a
 * double and an int, so rank 1's assertion fails.
 */
#include <mpi.h>
#include <assert.h>
#include <stddef.h>

struct sent_record {
    int id;
    double value;
};

struct received_record {
    double value;
    int id;
};

int main(int argc, char *argv[]) {
    int rank;
    int lengths[2] = {1, 1};
    MPI_Aint sent_displs[2] = {offsetof(struct sent_record, id),
                               offsetof(struct sent_record, value)};
    MPI_Aint received_displs[2] = {offsetof(struct received_record, value),
                                   offsetof(struct received_record, id)};
    MPI_Datatype sent_types[2] = {MPI_INT, MPI_DOUBLE}, received_types[2] = {MPI_DOUBLE, MPI_INT};
    MPI_Datatype sent_type, received_type;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, lengths, sent_displs, sent_types, &sent_type);
    MPI_Type_create_struct(2, lengths, received_displs, received_types, &received_type);
    MPI_Type_commit(&sent_type);
    MPI_Type_commit(&received_type);
    if (rank == 0) {
        struct sent_record r = {7, 2.5};
        MPI_Send(&r, 1, sent_type, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        struct received_record r;
        /* BUG: {int, double} received as {double, int} */
        MPI_Recv(&r, 1, received_type, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(r.id == 7 && r.value == 2.5);
    }
    MPI_Type_free(&sent_type);
    MPI_Type_free(&received_type);
    MPI_Finalize();
    return 0;
}
