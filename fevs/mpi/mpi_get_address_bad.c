/* fevs/mpi/mpi_get_address_bad.c -- a struct datatype with a displacement
 * taken from the wrong base address. As in mpi_get_address_ok.c, a helper
 * takes the addresses of a struct's fields with MPI_Get_address, but the
 * BUG subtracts the address of the field before `tag` (pos) instead of the
 * struct's: `tag`'s displacement is 16, where pos[1], a double, lies. The
 * datatype puts an MPI_CHAR inside a double: it does not describe the C
 * struct, and the char that arrives is not `tag`.
 *
 * Expected verdict: tass verify -n 2 mpi_get_address_bad.c: violated
 * (mpi-type, line 53: no char starts at byte 16 of the send buffer).
 * mpirun -np 2 (default and zero-buffer, ASan+UBSan): Open MPI moves the
 * first byte of pos[1] into the same byte of rank 1's pos[1]; `tag` keeps
 * 'a' and rank 1's assertion fails (rank 1's pos[1] changes too).
 */
#include <mpi.h>
#include <assert.h>

struct particle {
    int id;
    double pos[2];
    char tag;
};

static MPI_Datatype particle_type(void) {
    struct particle p = {0, {0.0, 0.0}, 0};
    MPI_Aint base, displs[3];
    int lengths[3] = {1, 2, 1};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype t;
    MPI_Get_address(&p, &base);
    MPI_Get_address(&p.id, &displs[0]);
    MPI_Get_address(&p.pos[0], &displs[1]);
    MPI_Get_address(&p.tag, &displs[2]);
    displs[2] = MPI_Aint_diff(displs[2], displs[1]); /* BUG: from pos, not p */
    displs[1] = MPI_Aint_diff(displs[1], base);
    displs[0] = MPI_Aint_diff(displs[0], base);
    MPI_Type_create_struct(3, lengths, displs, types, &t);
    MPI_Type_commit(&t);
    return t;
}

int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Datatype t = particle_type();
    struct particle q = {0, {0.0, 0.0}, 'a'};
    if (rank == 0) {
        q.id = 7;
        q.pos[0] = 1.5;
        q.pos[1] = 2.5;
        q.tag = 'z';
        MPI_Send(&q, 1, t, 1, 0, MPI_COMM_WORLD); /* the BUG shows: tag is at 24 */
    } else if (rank == 1) {
        MPI_Recv(&q, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(q.id == 7 && q.pos[0] == 1.5 && q.pos[1] == 2.5 && q.tag == 'z');
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
