//! Adversarial MPI programs (2-4 processes) aimed at the fixes of issue 14:
//! `MPI_Ssend` posting its message before it waits (probes see it), the send
//! half of `MPI_Sendrecv(_replace)` as a standard send, nonblocking
//! collectives holding back only the elements they own, and polling loops
//! (`MPI_Test`/`MPI_Testall`/`MPI_Iprobe`) that nothing can end reported as
//! `deadlock`. Each program runs with `--deadlock potential` and `--deadlock
//! absolute`, each with the reduction on and off (`TASS_POR=off`), which must
//! agree.
//!
//! Every expected verdict was confirmed by running the program for real:
//! `mpicc -g -DREALRUN` then `timeout 20 mpirun --allow-run-as-root
//! --oversubscribe -np N -x DR=r`, with the default configuration and the
//! zero-buffer one (`--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca
//! btl_tcp_rndv_eager_limit 56`). With `-DREALRUN` the `DELAY()` of each
//! program makes rank `r` sleep 0.3 s (`r = -1`: no delay), to force other
//! schedules; tass sees `DELAY()` as nothing. The exit status of each run is
//! in the comment of its program as `r:status`: 0 ends normally, 124 hangs
//! (killed by the timeout), 137 hangs and mpirun, stuck after the timeout's
//! TERM, was killed by hand, 134 an assertion fails. A hang only under the
//! zero-buffer configuration is what `--deadlock potential` reports and
//! `--deadlock absolute` does not. Found by these programs and fixed: an
//! `MPI_Iprobe` loop that sees a message but waits for another tag
//! (`iprobe_sees_message_but_waits_for_other_tag`), and a single `MPI_Test`
//! of an `MPI_Isend` taken to succeed (`isend_test_once_zero_buffer`: a test
//! may report flag 0 in both modes; the runs with `--mca btl self,tcp` and its
//! default eager limit show a buffering MPI doing so).
//! `isend_test_assert_loop` guards the closure's handling of a step that
//! reports a violation (it is reported, not skipped).

mod common;

use common::{inline, reduced_and_full, verify_reduced};

/// What tass must report in one `--deadlock` mode.
#[derive(Clone, Copy)]
enum Expect {
    Holds,
    /// The first violation's property (`a|b`: the reduced and the full search
    /// may meet either first) and, with one property, its line.
    Violated(&'static str, Option<u64>),
}

use Expect::{Holds, Violated};

/// Runs `text` on `procs` processes in potential and absolute mode, reduced
/// and full, against `potential` and `absolute`.
fn check(procs: &str, text: &str, potential: Expect, absolute: Expect) {
    for (mode, expect) in [("potential", potential), ("absolute", absolute)] {
        let extra = ["--deadlock", mode];
        match expect {
            Holds => {
                reduced_and_full(procs, &extra, text, "holds", "");
            }
            Violated(properties, line) => {
                reduced_and_full(procs, &extra, text, "violated", properties);
                let Some(line) = line else { continue };
                let file = inline(text);
                for reduced in [true, false] {
                    let (_, r) = verify_reduced(procs, &extra, &file, reduced);
                    let v = &r["violations"][0];
                    assert_eq!(v["line"], line, "mode {mode}, reduced {reduced}: {r:#}");
                }
            }
        }
    }
}

/// Ssend seen by an Iprobe loop, then received: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const SSEND_IPROBE_LOOP: &str = r#"// NP=2 Ssend seen by an Iprobe loop, then received: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 7, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Ssend(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else {
        while (!flag)
            MPI_Iprobe(0, 3, MPI_COMM_WORLD, &flag, &st);
        MPI_Recv(&y, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(y == 7);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ssend_iprobe_loop() {
    check("2", SSEND_IPROBE_LOOP, Holds, Holds);
}

/// Iprobe loop on a tag never sent, Ssend tag 3: hangs
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const SSEND_IPROBE_WRONGTAG: &str = r#"// NP=2 Iprobe loop on a tag never sent, Ssend tag 3: hangs
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 7, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Ssend(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else {
        while (!flag)
            MPI_Iprobe(0, 4, MPI_COMM_WORLD, &flag, &st);
        MPI_Recv(&y, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ssend_iprobe_wrongtag() {
    check(
        "2",
        SSEND_IPROBE_WRONGTAG,
        Violated("deadlock", Some(21)),
        Violated("deadlock", Some(21)),
    );
}

/// Ssend to self before the receive: hangs in every buffering
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const SSEND_SELF: &str = r#"// NP=2 Ssend to self before the receive: hangs in every buffering
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 7, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Ssend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ssend_self() {
    check(
        "2",
        SSEND_SELF,
        Violated("deadlock", Some(17)),
        Violated("deadlock", Some(17)),
    );
}

/// Irecv from self, then Ssend to self, then wait: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const SSEND_SELF_IRECV: &str = r#"// NP=2 Irecv from self, then Ssend to self, then wait: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 7, y = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Irecv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        MPI_Ssend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        assert(y == 7);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ssend_self_irecv() {
    check("2", SSEND_SELF_IRECV, Holds, Holds);
}

/// Probe ANY_SOURCE, Get_count, Recv from the probed source with that count: holds
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const PROBE_ANY_GETCOUNT: &str = r#"// NP=3 Probe ANY_SOURCE, Get_count, Recv from the probed source with that count: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, buf[4] = {0, 0, 0, 0}, n, i;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        for (i = 0; i < 2; i++) {
            MPI_Probe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &n);
            assert(n == st.MPI_SOURCE + 1);
            MPI_Recv(buf, n, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            assert(buf[n - 1] == st.MPI_SOURCE);
        }
    } else {
        buf[0] = rank; buf[1] = rank; buf[2] = rank;
        MPI_Ssend(buf, rank + 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn probe_any_getcount() {
    check("3", PROBE_ANY_GETCOUNT, Holds, Holds);
}

/// Probe ANY_SOURCE asserts the first message is from rank 1: fails when rank 2 is first
///
/// mpirun, np 3: default: -1:0 0:134 1:134 2:0; zero-buffer: -1:0 0:134 1:134 2:0.
const PROBE_RACE: &str = r#"// NP=3 Probe ANY_SOURCE asserts the first message is from rank 1: fails when rank 2 is first
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, i;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        assert(st.MPI_SOURCE == 1);
        for (i = 0; i < 2; i++)
            MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        x = rank;
        MPI_Ssend(&x, 1, MPI_INT, 0, rank, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn probe_race() {
    check(
        "3",
        PROBE_RACE,
        Violated("assertion", Some(19)),
        Violated("assertion", Some(19)),
    );
}

/// Sendrecv ring: holds even with zero buffering
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const SENDRECV_RING3: &str = r#"// NP=3 Sendrecv ring: holds even with zero buffering
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, size, x, y = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    DELAY();
    x = rank;
    MPI_Sendrecv(&x, 1, MPI_INT, (rank + 1) % size, 0, &y, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(y == (rank + size - 1) % size);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn sendrecv_ring3() {
    check("3", SENDRECV_RING3, Holds, Holds);
}

/// both Send to each other, then Sendrecv: zero-buffer deadlock (potential), holds absolute
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:124 0:124 1:124.
const SEND_THEN_SENDRECV: &str = r#"// NP=2 both Send to each other, then Sendrecv: zero-buffer deadlock (potential), holds absolute
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = -1, z = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank;
    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Sendrecv(&x, 1, MPI_INT, 1 - rank, 1, &y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&z, 1, MPI_INT, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(y == 1 - rank && z == 1 - rank);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn send_then_sendrecv() {
    check("2", SEND_THEN_SENDRECV, Violated("deadlock", None), Holds);
}

/// non-periodic shift with MPI_PROC_NULL ends: holds; status from PROC_NULL, count 0
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const SENDRECV_PROCNULL: &str = r#"// NP=3 non-periodic shift with MPI_PROC_NULL ends: holds; status from PROC_NULL, count 0
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, size, x, y = -5, n = -1, left, right;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    DELAY();
    x = rank;
    right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    MPI_Sendrecv(&x, 1, MPI_INT, right, 0, &y, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    if (rank == 0) {
        assert(y == -5);
        assert(st.MPI_SOURCE == MPI_PROC_NULL);
        assert(n == 0);
    } else {
        assert(y == rank - 1);
        assert(n == 1);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn sendrecv_procnull() {
    check("3", SENDRECV_PROCNULL, Holds, Holds);
}

/// Sendrecv_replace ring: holds
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const SENDRECV_REPLACE_RING: &str = r#"// NP=3 Sendrecv_replace ring: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, size, x[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    DELAY();
    x[0] = rank; x[1] = 10 * rank;
    MPI_Sendrecv_replace(x, 2, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(x[0] == (rank + size - 1) % size && x[1] == 10 * x[0]);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn sendrecv_replace_ring() {
    check("3", SENDRECV_REPLACE_RING, Holds, Holds);
}

/// rank 0 Sendrecv, rank 1 Send then Recv: holds with zero buffering (Sendrecv posts both halves)
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const SENDRECV_VS_RECV_SEND: &str = r#"// NP=2 rank 0 Sendrecv, rank 1 Send then Recv: holds with zero buffering (Sendrecv posts both halves)
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank;
    if (rank == 0) {
        MPI_Sendrecv(&x, 1, MPI_INT, 1, 0, &y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    assert(y == 1 - rank);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn sendrecv_vs_recv_send() {
    check("2", SENDRECV_VS_RECV_SEND, Holds, Holds);
}

/// Sendrecv to self: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const SENDRECV_SELF: &str = r#"// NP=2 Sendrecv to self: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank + 5;
    MPI_Sendrecv(&x, 1, MPI_INT, rank, 0, &y, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(y == rank + 5);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn sendrecv_self() {
    check("2", SENDRECV_SELF, Holds, Holds);
}

/// rank 1 computes a long loop, then sends; rank 0 polls Iprobe: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const POLL_AFTER_WORK: &str = r#"// NP=2 rank 1 computes a long loop, then sends; rank 0 polls Iprobe: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 0, y = 0, flag = 0, i;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 1) {
        for (i = 0; i < 300; i++)
            x = x + i;
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        while (!flag)
            MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, &st);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(y == 44850);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn poll_after_work() {
    check("2", POLL_AFTER_WORK, Holds, Holds);
}

/// rank 0 polls at most 3 times and skips the receive if nothing came; rank 1 Ssends: hang when rank 1 is late
///
/// mpirun, np 2: default: -1:124 0:0 1:124; zero-buffer: -1:124 0:124 1:124.
const POLL_BOUNDED_GIVEUP: &str = r#"// NP=2 rank 0 polls at most 3 times and skips the receive if nothing came; rank 1 Ssends: hang when rank 1 is late
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0, k;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 1) {
        MPI_Ssend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        for (k = 0; k < 3 && !flag; k++)
            MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (flag)
            MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn poll_bounded_giveup() {
    check(
        "2",
        POLL_BOUNDED_GIVEUP,
        Violated("deadlock", Some(17)),
        Violated("deadlock", Some(17)),
    );
}

/// rank 0 polls at most 3 times then receives anyway: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const POLL_BOUNDED_OK: &str = r#"// NP=2 rank 0 polls at most 3 times then receives anyway: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0, k;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 1) {
        MPI_Ssend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        for (k = 0; k < 3 && !flag; k++)
            MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(y == 1);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn poll_bounded_ok() {
    check("2", POLL_BOUNDED_OK, Holds, Holds);
}

/// rank 0 Test-loops an Irecv from 1; rank 1 waits on a message from 2; rank 2 waits for one from 0 that never comes: hang
///
/// mpirun, np 3: default: -1:124 0:124 1:124 2:124; zero-buffer: -1:124 0:124 1:124 2:124.
const TEST_IRECV_CHAIN_BAD: &str = r#"// NP=3 rank 0 Test-loops an Irecv from 1; rank 1 waits on a message from 2; rank 2 waits for one from 0 that never comes: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Irecv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&y, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn test_irecv_chain_bad() {
    check(
        "3",
        TEST_IRECV_CHAIN_BAD,
        Violated("deadlock", Some(20)),
        Violated("deadlock", Some(20)),
    );
}

/// rank 0 Test-loops an Irecv from 1; rank 1 waits on rank 2 which sends: holds
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const TEST_IRECV_CHAIN_OK: &str = r#"// NP=3 rank 0 Test-loops an Irecv from 1; rank 1 waits on rank 2 which sends: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Irecv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        assert(y == 1);
        MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&y, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn test_irecv_chain_ok() {
    check("3", TEST_IRECV_CHAIN_OK, Holds, Holds);
}

/// Isend+Irecv to the partner, Testall loop: holds with zero buffering
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const TESTALL_MIXED_OK: &str = r#"// NP=2 Isend+Irecv to the partner, Testall loop: holds with zero buffering
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = -1, flag = 0;
    MPI_Request r[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank;
    MPI_Isend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r[1]);
    while (!flag)
        MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
    assert(y == 1 - rank);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn testall_mixed_ok() {
    check("2", TESTALL_MIXED_OK, Holds, Holds);
}

/// Testall over an Isend and an Irecv with a tag nobody sends: hang
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const TESTALL_WRONGTAG: &str = r#"// NP=2 Testall over an Isend and an Irecv with a tag nobody sends: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = -1, flag = 0;
    MPI_Request r[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank;
    MPI_Isend(&x, 1, MPI_INT, 1 - rank, rank, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r[1]);
    while (!flag)
        MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn testall_wrongtag() {
    check(
        "2",
        TESTALL_WRONGTAG,
        Violated("deadlock", Some(21)),
        Violated("deadlock", Some(21)),
    );
}

/// rank 0 Issend + Test loop; rank 1 Iprobe loop then Recv: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const ISSEND_TEST_IPROBE: &str = r#"// NP=2 rank 0 Issend + Test loop; rank 1 Iprobe loop then Recv: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 4, y = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Issend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    } else {
        while (!flag)
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(y == 4);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn issend_test_iprobe() {
    check("2", ISSEND_TEST_IPROBE, Holds, Holds);
}

/// both Issend to each other and Test-loop before receiving: hangs in every buffering (synchronous)
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const ISSEND_TEST_BOTH_THEN_RECV: &str = r#"// NP=2 both Issend to each other and Test-loop before receiving: hangs in every buffering (synchronous)
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank;
    MPI_Issend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r);
    while (!flag)
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn issend_test_both_then_recv() {
    check(
        "2",
        ISSEND_TEST_BOTH_THEN_RECV,
        Violated("deadlock", Some(20)),
        Violated("deadlock", Some(20)),
    );
}

/// rank 0 Ssend to 1 then Recv; rank 1 Probe (sees it), Ssend to 0, then Recv: hangs in every buffering
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const SSEND_PROBE_THEN_SSEND: &str = r#"// NP=2 rank 0 Ssend to 1 then Recv; rank 1 Probe (sees it), Ssend to 0, then Recv: hangs in every buffering
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Ssend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Probe(0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ssend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ssend_probe_then_ssend() {
    check(
        "2",
        SSEND_PROBE_THEN_SSEND,
        Violated("deadlock", Some(17)),
        Violated("deadlock", Some(17)),
    );
}

/// manager polls ANY_SOURCE, counts messages found, receives each: holds
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const IPROBE_COUNTER_EXIT_THEN_RECV_ANY: &str = r#"// NP=3 manager polls ANY_SOURCE, counts messages found, receives each: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, got = 0, flag, sum = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        while (got < 2) {
            flag = 0;
            MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
            if (flag) {
                MPI_Recv(&x, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                sum += x;
                got++;
            }
        }
        assert(sum == 3);
    } else {
        x = rank;
        MPI_Ssend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_counter_exit_then_recv_any() {
    check("3", IPROBE_COUNTER_EXIT_THEN_RECV_ANY, Holds, Holds);
}

/// Ibcast of buf[0..1] while buf[2] is written and read before the wait: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const IBCAST_PARTIAL_OK: &str = r#"// NP=2 Ibcast of buf[0..1] while buf[2] is written and read before the wait: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, buf[3];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    buf[0] = rank == 0 ? 5 : 0; buf[1] = rank == 0 ? 6 : 0; buf[2] = 0;
    MPI_Ibcast(buf, 2, MPI_INT, 0, MPI_COMM_WORLD, &r);
    buf[2] = rank + 1;
    assert(buf[2] == rank + 1);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    assert(buf[0] == 5 && buf[1] == 6 && buf[2] == rank + 1);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ibcast_partial_ok() {
    check("2", IBCAST_PARTIAL_OK, Holds, Holds);
}

/// Ibcast of buf+1 (elements 1..2) while buf[0] and buf[3] are used: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const IBCAST_OFFSET_OK: &str = r#"// NP=2 Ibcast of buf+1 (elements 1..2) while buf[0] and buf[3] are used: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, buf[4] = {0, 0, 0, 0};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 1) { buf[1] = 8; buf[2] = 9; }
    MPI_Ibcast(buf + 1, 2, MPI_INT, 1, MPI_COMM_WORLD, &r);
    buf[0] = 3; buf[3] = buf[0] + 1;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    assert(buf[0] == 3 && buf[1] == 8 && buf[2] == 9 && buf[3] == 4);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ibcast_offset_ok() {
    check("2", IBCAST_OFFSET_OK, Holds, Holds);
}

/// Iallreduce, result read before the wait: erroneous (reads stale data); real run may see 0
///
/// mpirun, np 2: default: -1:134 0:134 1:134; zero-buffer: -1:134 0:134 1:134.
const IALLREDUCE_READ_EARLY: &str = r#"// NP=2 Iallreduce, result read before the wait: erroneous (reads stale data); real run may see 0
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y[2] = {0, 0};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank + 1;
    MPI_Iallreduce(&x, y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    y[1] = y[0];
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    assert(y[1] == 3);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iallreduce_read_early() {
    check(
        "2",
        IALLREDUCE_READ_EARLY,
        Violated("invalid-pointer", Some(19)),
        Violated("invalid-pointer", Some(19)),
    );
}

/// Ireduce with an input-dependent count, unrelated element used before the wait: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const IREDUCE_INPUT_COUNT: &str = r#"// NP=2 Ireduce with an input-dependent count, unrelated element used before the wait: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
#pragma TASS input {1 <= n && n <= 2}
int n;
int main(int argc, char *argv[]) {
    int rank, x[2], y[3] = {0, 0, 0};
    MPI_Request r;
#ifdef REALRUN
    n = 2;
#endif
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x[0] = rank + 1; x[1] = 10 * (rank + 1);
    MPI_Ireduce(x, y, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0) {
        assert(y[0] == 3);
        if (n == 2) assert(y[1] == 30);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ireduce_input_count() {
    check("2", IREDUCE_INPUT_COUNT, Holds, Holds);
}

/// rank 0 posts Ibcast then Recv; rank 1 Sends then posts Ibcast; waits: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const IBCAST_THEN_SEND_RECV: &str = r#"// NP=2 rank 0 posts Ibcast then Recv; rank 1 Sends then posts Ibcast; waits: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, b = 0, x = 9, y = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        b = 4;
        MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    assert(b == 4);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ibcast_then_send_recv() {
    check("2", IBCAST_THEN_SEND_RECV, Holds, Holds);
}

/// rank 0 Test-loops an Ibarrier that rank 1 never posts (rank 1 waits for rank 0's message): hang
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const IBARRIER_TEST_LOOP_MISSING: &str = r#"// NP=2 rank 0 Test-loops an Ibarrier that rank 1 never posts (rank 1 waits for rank 0's message): hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ibarrier_test_loop_missing() {
    check(
        "2",
        IBARRIER_TEST_LOOP_MISSING,
        Violated("deadlock", Some(20)),
        Violated("deadlock", Some(20)),
    );
}

/// two messages same tag: received in order (non-overtaking): holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const NONOVERTAKING: &str = r#"// NP=2 two messages same tag: received in order (non-overtaking): holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, a = 0, b = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        x = 1; MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        x = 2; MPI_Ssend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&b, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(a == 1 && b == 2);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn nonovertaking() {
    check("2", NONOVERTAKING, Holds, Holds);
}

/// rank 0 sends tag 1 then tag 0, rank 1 receives tag 0 then tag 1: zero-buffer hang (potential), holds absolute
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:124 0:124 1:124.
const TAG_ORDER_ZERO_BUFFER: &str = r#"// NP=2 rank 0 sends tag 1 then tag 0, rank 1 receives tag 0 then tag 1: zero-buffer hang (potential), holds absolute
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, a = 0, b = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn tag_order_zero_buffer() {
    check(
        "2",
        TAG_ORDER_ZERO_BUFFER,
        Violated("deadlock", Some(17)),
        Holds,
    );
}

/// rank 0 Ssend tag 1 after Isend tag 0; rank 1 Iprobe-loops tag 1, receives tag 1 then tag 0: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const IPROBE_TAG_SEES_LATER: &str = r#"// NP=2 rank 0 Ssend tag 1 after Isend tag 0; rank 1 Iprobe-loops tag 1, receives tag 1 then tag 0: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, z = 2, a = 0, b = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Ssend(&z, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        while (!flag)
            MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(a == 1 && b == 2);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_tag_sees_later() {
    check("2", IPROBE_TAG_SEES_LATER, Holds, Holds);
}

/// Recv ANY_SOURCE twice, assert first from rank 1: violated when rank 2 first (POR check)
///
/// mpirun, np 3: default: -1:0 0:134 1:134 2:0; zero-buffer: -1:0 0:134 1:134 2:0.
const ANY_SOURCE_ORDER_ASSERT: &str = r#"// NP=3 Recv ANY_SOURCE twice, assert first from rank 1: violated when rank 2 first (POR check)
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, a = 0, b = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(a == 1);
    } else {
        x = rank;
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn any_source_order_assert() {
    check(
        "3",
        ANY_SOURCE_ORDER_ASSERT,
        Violated("assertion", Some(19)),
        Violated("assertion", Some(19)),
    );
}

/// rank 0 posts Irecv(ANY_SOURCE), then Iprobe-loops for rank 2's message; receives it; waits: the Irecv may have taken rank 2's message -> hang possible
///
/// mpirun, np 3: default: -1:124 0:137 1:124 2:0; zero-buffer: -1:124 0:124 1:124 2:0.
const IRECV_ANY_THEN_IPROBE: &str = r#"// NP=3 rank 0 posts Irecv(ANY_SOURCE), then Iprobe-loops for rank 2's message; receives it; waits: the Irecv may have taken rank 2's message -> hang possible
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, a = 0, b = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Iprobe(2, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&b, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        x = rank;
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn irecv_any_then_iprobe() {
    check(
        "3",
        IRECV_ANY_THEN_IPROBE,
        Violated("deadlock", Some(20)),
        Violated("deadlock", Some(20)),
    );
}

/// rank 0 Sendrecv with recv ANY_SOURCE; assert it came from 1: violated if 2 first
///
/// mpirun, np 3: default: -1:0 0:134 1:134 2:0; zero-buffer: -1:134 0:134 1:134 2:0.
const SENDRECV_ANY_SOURCE_RACE: &str = r#"// NP=3 rank 0 Sendrecv with recv ANY_SOURCE; assert it came from 1: violated if 2 first
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = -1, z;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank;
    if (rank == 0) {
        MPI_Sendrecv(&x, 1, MPI_INT, 1, 5, &y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
        MPI_Recv(&z, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(st.MPI_SOURCE == 1);
    } else if (rank == 1) {
        MPI_Recv(&z, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn sendrecv_any_source_race() {
    check(
        "3",
        SENDRECV_ANY_SOURCE_RACE,
        Violated("assertion", Some(21)),
        Violated("assertion", Some(21)),
    );
}

/// a single Iprobe may find nothing although the message was sent: assert(flag) can fail
///
/// mpirun, np 2: default: -1:134 0:134 1:134; zero-buffer: -1:134 0:134 1:134.
const IPROBE_ONCE_ASSERT_FLAG: &str = r#"// NP=2 a single Iprobe may find nothing although the message was sent: assert(flag) can fail
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 3, y = 0, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        assert(flag);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_once_assert_flag() {
    check(
        "2",
        IPROBE_ONCE_ASSERT_FLAG,
        Violated("assertion", Some(20)),
        Violated("assertion", Some(20)),
    );
}

/// rank 1 waits for rank 0's Ssend to be matched... assert(!flag) after a Barrier: the message is there, Iprobe may see it
///
/// mpirun, np 2: default: -1:134 0:134 1:134; zero-buffer: -1:124 0:124 1:124.
const IPROBE_ONCE_ASSERT_NOFLAG: &str = r#"// NP=2 rank 1 waits for rank 0's Ssend to be matched... assert(!flag) after a Barrier: the message is there, Iprobe may see it
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 3, y = 0, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        assert(!flag);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_once_assert_noflag() {
    check(
        "2",
        IPROBE_ONCE_ASSERT_NOFLAG,
        Violated("deadlock|assertion", None),
        Violated("assertion", Some(22)),
    );
}

/// Igather: the non-root's recvbuf is not significant, it reads it before the wait: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const IGATHER_NONROOT_RECVBUF: &str = r#"// NP=2 Igather: the non-root's recvbuf is not significant, it reads it before the wait: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, all[2] = {7, 7}, t = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank + 1;
    MPI_Igather(&x, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    if (rank == 1)
        t = all[0] + all[1];
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 1)
        assert(t == 14 && all[0] == 7);
    else
        assert(all[0] == 1 && all[1] == 2);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn igather_nonroot_recvbuf() {
    check("2", IGATHER_NONROOT_RECVBUF, Holds, Holds);
}

/// Ireduce: non-root reads and writes its (insignificant) recvbuf before the wait: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const IREDUCE_NONROOT_RECVBUF: &str = r#"// NP=2 Ireduce: non-root reads and writes its (insignificant) recvbuf before the wait: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = 5;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank + 1;
    MPI_Ireduce(&x, &y, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &r);
    if (rank == 1) {
        assert(y == 5);
        y = 6;
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0)
        assert(y == 3);
    else
        assert(y == 6);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ireduce_nonroot_recvbuf() {
    check("2", IREDUCE_NONROOT_RECVBUF, Holds, Holds);
}

/// Ibcast root reads its buffer (a send buffer there) before the wait: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const IBCAST_ROOT_READS: &str = r#"// NP=2 Ibcast root reads its buffer (a send buffer there) before the wait: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, b = 0, t = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) b = 4;
    MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    if (rank == 0) t = b;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    assert(b == 4);
    if (rank == 0) assert(t == 4);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ibcast_root_reads() {
    check("2", IBCAST_ROOT_READS, Holds, Holds);
}

/// Iscatter: the non-root's sendbuf is insignificant; it reads and writes it before the wait: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const ISCATTER_NONROOT_SENDBUF: &str = r#"// NP=2 Iscatter: the non-root's sendbuf is insignificant; it reads and writes it before the wait: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, s[2] = {0, 0}, y = -1;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) { s[0] = 10; s[1] = 11; }
    MPI_Iscatter(s, 1, MPI_INT, &y, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    if (rank == 1) { s[0] = s[1] + 1; }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    assert(y == 10 + rank);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iscatter_nonroot_sendbuf() {
    check("2", ISCATTER_NONROOT_SENDBUF, Holds, Holds);
}

/// both poll Iprobe for the other's message before sending: hang
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const MUTUAL_IPROBE_LOOPS: &str = r#"// NP=2 both poll Iprobe for the other's message before sending: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    while (!flag)
        MPI_Iprobe(1 - rank, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn mutual_iprobe_loops() {
    check(
        "2",
        MUTUAL_IPROBE_LOOPS,
        Violated("deadlock", Some(17)),
        Violated("deadlock", Some(17)),
    );
}

/// rank 0 polls ANY_SOURCE, receives from the probed source, then receives from 1: hang when rank 1's message is probed first
///
/// mpirun, np 3: default: -1:124 0:124 1:0 2:137; zero-buffer: -1:124 0:124 1:0 2:124.
const POLL_ANY_SCHEDULE_DEADLOCK: &str = r#"// NP=3 rank 0 polls ANY_SOURCE, receives from the probed source, then receives from 1: hang when rank 1's message is probed first
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        while (!flag)
            MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
        MPI_Recv(&y, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        x = rank;
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn poll_any_schedule_deadlock() {
    check(
        "3",
        POLL_ANY_SCHEDULE_DEADLOCK,
        Violated("deadlock", Some(21)),
        Violated("deadlock", Some(21)),
    );
}

/// poll at most 50 times, then assert the message came: fails when the sender is late
///
/// mpirun, np 2: default: -1:0 0:0 1:134; zero-buffer: -1:134 0:134 1:134.
const BOUNDED_POLL_ASSERT: &str = r#"// NP=2 poll at most 50 times, then assert the message came: fails when the sender is late
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0, k;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 1) {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        for (k = 0; k < 50 && !flag; k++)
            MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        assert(flag);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn bounded_poll_assert() {
    check(
        "2",
        BOUNDED_POLL_ASSERT,
        Violated("assertion", Some(21)),
        Violated("assertion", Some(21)),
    );
}

/// rank 0 polls for rank 1; rank 1 blocks in Recv from 2; rank 2 polls for rank 0: hang
///
/// mpirun, np 3: default: -1:124 0:124 1:124 2:124; zero-buffer: -1:124 0:124 1:124 2:124.
const POLL_BLOCKED_RECV_MIX: &str = r#"// NP=3 rank 0 polls for rank 1; rank 1 blocks in Recv from 2; rank 2 polls for rank 0: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        while (!flag) MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&y, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        while (!flag) MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn poll_blocked_recv_mix() {
    check(
        "3",
        POLL_BLOCKED_RECV_MIX,
        Violated("deadlock", Some(17)),
        Violated("deadlock", Some(17)),
    );
}

/// Sendrecv_replace with PROC_NULL source keeps the buffer, PROC_NULL dest sends nothing: holds
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const SENDRECV_REPLACE_PROCNULL_PAIR: &str = r#"// NP=3 Sendrecv_replace with PROC_NULL source keeps the buffer, PROC_NULL dest sends nothing: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, size, x, right, left;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    DELAY();
    x = 100 + rank;
    right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    MPI_Sendrecv_replace(&x, 1, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &st);
    if (rank == 0) assert(x == 100 && st.MPI_TAG == MPI_ANY_TAG);
    else assert(x == 99 + rank && st.MPI_SOURCE == rank - 1);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn sendrecv_replace_procnull_pair() {
    check("3", SENDRECV_REPLACE_PROCNULL_PAIR, Holds, Holds);
}

/// Iprobe (ANY_TAG) of an Ssend of 3 elements: Get_count 3, tag 9: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const SSEND_IPROBE_GETCOUNT: &str = r#"// NP=2 Iprobe (ANY_TAG) of an Ssend of 3 elements: Get_count 3, tag 9: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x[3] = {1, 2, 3}, y[3] = {0, 0, 0}, flag = 0, n = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Ssend(x, 3, MPI_INT, 1, 9, MPI_COMM_WORLD);
    } else {
        while (!flag) MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        MPI_Get_count(&st, MPI_INT, &n);
        assert(n == 3 && st.MPI_TAG == 9 && st.MPI_SOURCE == 0);
        MPI_Recv(y, n, MPI_INT, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(y[2] == 3);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ssend_iprobe_getcount() {
    check("2", SSEND_IPROBE_GETCOUNT, Holds, Holds);
}

/// rank 1 polls until it sees tag 5, rank 0 sends tag 3: the probe finds a message every time but the loop never ends: hang
///
/// Reported to hold before the fix: the livelock check counted a probe that
/// finds a message as progress; it is now local code of the closure (it
/// changes only the flag and the status). The correct twin is
/// `iprobe_found_tag5_ok`.
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const IPROBE_FOUND_BUT_IGNORED: &str = r#"// NP=2 rank 1 polls until it sees tag 5, rank 0 sends tag 3: the probe finds a message every time but the loop never ends: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else {
        do {
            MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        } while (!(flag && st.MPI_TAG == 5));
        MPI_Recv(&y, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_sees_message_but_waits_for_other_tag() {
    check(
        "2",
        IPROBE_FOUND_BUT_IGNORED,
        Violated("deadlock", Some(21)),
        Violated("deadlock", Some(21)),
    );
}

/// rank 0 Ibarrier+Wait then sends; rank 1 polls for that message before posting its Ibarrier: hang
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const IBARRIER_VS_IPROBE: &str = r#"// NP=2 rank 0 Ibarrier+Wait then sends; rank 1 polls for that message before posting its Ibarrier: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        while (!flag)
            MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ibarrier_vs_iprobe() {
    check(
        "2",
        IBARRIER_VS_IPROBE,
        Violated("deadlock", Some(23)),
        Violated("deadlock", Some(23)),
    );
}

/// rank 1 receives with Irecv and keeps testing a completed... polls Iprobe for a second message never sent: hang
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const TEST_DONE_THEN_KEEP_POLLING: &str = r#"// NP=2 rank 1 receives with Irecv and keeps testing a completed... polls Iprobe for a second message never sent: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0, got = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        while (got < 2) {
            MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
            if (flag) {
                MPI_Recv(&y, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                got++;
            }
        }
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn test_done_then_keep_polling() {
    check(
        "2",
        TEST_DONE_THEN_KEEP_POLLING,
        Violated("deadlock", Some(21)),
        Violated("deadlock", Some(21)),
    );
}

/// rank 1 tests an Irecv until flag and a counter; the receive completes but the loop waits for a value never sent: hang
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const TEST_FLAG_IGNORED: &str = r#"// NP=2 rank 1 tests an Irecv until flag and a counter; the receive completes but the loop waits for a value never sent: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Irecv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        while (y != 2)
            MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn test_flag_ignored() {
    check(
        "2",
        TEST_FLAG_IGNORED,
        Violated("deadlock", Some(24)),
        Violated("deadlock", Some(24)),
    );
}

/// correct twin: rank 0 sends tag 5: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const IPROBE_FOUND_TAG5_OK: &str = r#"// NP=2 correct twin: rank 0 sends tag 5: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else {
        do {
            MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        } while (!(flag && st.MPI_TAG == 5));
        MPI_Recv(&y, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_found_tag5_ok() {
    check("2", IPROBE_FOUND_TAG5_OK, Holds, Holds);
}

/// rank 1 polls Iprobe(0, ANY_TAG) until it sees tag 5, rank 0 sends tag 3 then tag 5: the probe always sees the older tag 3: hang
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const IPROBE_ANYTAG_OLDEST: &str = r#"// NP=2 rank 1 polls Iprobe(0, ANY_TAG) until it sees tag 5, rank 0 sends tag 3 then tag 5: the probe always sees the older tag 3: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else {
        do {
            MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        } while (!(flag && st.MPI_TAG == 5));
        MPI_Recv(&y, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_anytag_oldest() {
    check(
        "2",
        IPROBE_ANYTAG_OLDEST,
        Violated("deadlock", Some(22)),
        Violated("deadlock", Some(22)),
    );
}

/// rank 1 polls Iprobe(0, 5), then receives tag 5 and tag 3; rank 0 sends tag 3 then tag 5: zero-buffer hang (potential), holds absolute
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:124 0:124 1:124.
const IPROBE_TAG5_ZERO_BUFFER: &str = r#"// NP=2 rank 1 polls Iprobe(0, 5), then receives tag 5 and tag 3; rank 0 sends tag 3 then tag 5: zero-buffer hang (potential), holds absolute
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else {
        while (!flag)
            MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_tag5_zero_buffer() {
    check(
        "2",
        IPROBE_TAG5_ZERO_BUFFER,
        Violated("deadlock", Some(21)),
        Holds,
    );
}

/// rank 0 polls Iprobe(ANY_SOURCE) until it sees rank 2; rank 1 sends first and rank 2 sends only after rank 0's reply... never comes: hang
///
/// mpirun, np 3: default: -1:124 0:124 1:137 2:137; zero-buffer: -1:124 0:124 1:124 2:124.
const IPROBE_SOURCE_FILTER: &str = r#"// NP=3 rank 0 polls Iprobe(ANY_SOURCE) until it sees rank 2; rank 1 sends first and rank 2 sends only after rank 0's reply... never comes: hang
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        do {
            MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
        } while (!(flag && st.MPI_SOURCE == 2));
        MPI_Recv(&y, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_source_filter() {
    check(
        "3",
        IPROBE_SOURCE_FILTER,
        Violated("deadlock", Some(19)),
        Violated("deadlock", Some(19)),
    );
}

/// rank 0 Sendrecv (send to 1 tag 0, receive tag 1); rank 1 polls Iprobe for tag 0, receives it, then sends tag 1: holds even with zero buffering
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const SENDRECV_HALF_PROBED: &str = r#"// NP=2 rank 0 Sendrecv (send to 1 tag 0, receive tag 1); rank 1 polls Iprobe for tag 0, receives it, then sends tag 1: holds even with zero buffering
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 7, y = 0, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Sendrecv(&x, 1, MPI_INT, 1, 0, &y, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(y == 8);
    } else {
        while (!flag)
            MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        y = y + 1;
        MPI_Send(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn sendrecv_half_probed() {
    check("2", SENDRECV_HALF_PROBED, Holds, Holds);
}

/// rank 0 Testall-loops an Ibarrier and an Irecv; rank 1 sends, then Ibarrier + Wait: holds
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const TESTALL_IBARRIER_IRECV: &str = r#"// NP=2 rank 0 Testall-loops an Ibarrier and an Irecv; rank 1 sends, then Ibarrier + Wait: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 7, y = 0, flag = 0;
    MPI_Request r[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[1]);
        while (!flag)
            MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
        assert(y == 7);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn testall_ibarrier_irecv() {
    check("2", TESTALL_IBARRIER_IRECV, Holds, Holds);
}

/// rank 0 Sendrecv; rank 1 Ssend then Recv: holds (the Sendrecv's receive half takes the Ssend)
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:0 0:0 1:0.
const SENDRECV_SSEND_CROSS: &str = r#"// NP=2 rank 0 Sendrecv; rank 1 Ssend then Recv: holds (the Sendrecv's receive half takes the Ssend)
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank + 10;
    if (rank == 0) {
        MPI_Sendrecv(&x, 1, MPI_INT, 1, 0, &y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Ssend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    assert(y == 11 - rank);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn sendrecv_ssend_cross() {
    check("2", SENDRECV_SSEND_CROSS, Holds, Holds);
}

/// both Ssend to each other, then Sendrecv_replace: hangs in every buffering
///
/// mpirun, np 2: default: -1:124 0:124 1:124; zero-buffer: -1:124 0:124 1:124.
const PROBE_THEN_SENDRECV_REPLACE_DEADLOCK: &str = r#"// NP=2 both Ssend to each other, then Sendrecv_replace: hangs in every buffering
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    x = rank;
    MPI_Ssend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Sendrecv_replace(&x, 1, MPI_INT, 1 - rank, 1, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn probe_then_sendrecv_replace_deadlock() {
    check(
        "2",
        PROBE_THEN_SENDRECV_REPLACE_DEADLOCK,
        Violated("deadlock", Some(17)),
        Violated("deadlock", Some(17)),
    );
}

/// rank 0 Isends tag 0 and spins on MPI_Test asserting the flag, before sending tag 1; rank 1 receives tag 1 first: zero-buffer: the first test finds nothing, the assertion fails
///
/// mpirun, np 2: default: -1:0 0:0 1:0; zero-buffer: -1:134 0:134 1:134;
/// `--mca btl self,tcp` with its default eager limit (64 KiB: the one-int
/// message is sent eagerly, i.e. buffered): -1:134 0:134 1:134. A test may
/// report flag 0 before its send completes in either mode (MPI promises only
/// that a repeated test eventually succeeds), so `--deadlock absolute` reports
/// the assertion too.
const ISEND_TEST_ASSERT_LOOP: &str = r#"// NP=2 rank 0 Isends tag 0 and spins on MPI_Test asserting the flag, before sending tag 1; rank 1 receives tag 1 first: zero-buffer: the first test finds nothing, the assertion fails
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        while (!flag) {
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            assert(flag);
        }
        MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn isend_test_assert_loop() {
    check(
        "2",
        ISEND_TEST_ASSERT_LOOP,
        Violated("assertion", Some(21)),
        Violated("assertion", Some(21)),
    );
}

/// Rank 0 `MPI_Isend`s, calls `MPI_Test` once and asserts the flag; rank 1
/// receives 0.3 s later (`usleep` under `-DREALRUN`, no `DELAY()`). MPI only
/// promises that a test repeated while the operation can complete eventually
/// reports it: one test may find the send incomplete, buffered or not. tass
/// used to take a test of an `MPI_Isend` as succeeding once the message was
/// buffered (wrong "holds" in both modes); a test of requests that can
/// complete now has both outcomes, flag 1 and flag 0.
///
/// mpirun, np 2 (three runs each): default: 0, 0, 0; zero-buffer: 134, 134,
/// 134; `--mca btl self,tcp` with its default eager limit (the message is
/// buffered): 134, 134, 134.
const ISEND_TEST_ONCE_ZERO_BUFFER: &str = r#"// NP=2 rank 0 Isend, one MPI_Test, assert(flag): zero-buffer real run: flag 0 when the receiver is late
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 3, y = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        assert(flag);
        if (!flag)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
#ifdef REALRUN
        usleep(300000);
#endif
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn isend_test_once_zero_buffer() {
    check(
        "2",
        ISEND_TEST_ONCE_ZERO_BUFFER,
        Violated("assertion", Some(19)),
        Violated("assertion", Some(19)),
    );
}

/// The correct twin: the flag decides whether to wait. Holds in both modes.
///
/// mpirun, np 2 (three runs each): default: 0, 0, 0; zero-buffer: 0, 0, 0;
/// `--mca btl self,tcp`: 0, 0, 0.
const ISEND_TEST_ONCE_THEN_WAIT: &str = r#"// NP=2 rank 0 Isend, one MPI_Test, MPI_Wait if the flag is 0: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <unistd.h>
#endif
int main(int argc, char *argv[]) {
    int rank, x = 3, y = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        assert(r == MPI_REQUEST_NULL);
    } else {
#ifdef REALRUN
        usleep(300000);
#endif
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(y == 3);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn isend_test_once_then_wait() {
    check("2", ISEND_TEST_ONCE_THEN_WAIT, Holds, Holds);
}

/// A variant where the flag-0 branch needs buffering: rank 0 waits for its
/// `MPI_Isend` of tag 0 when one test finds it incomplete, then sends tag 1;
/// rank 1 receives tag 1 first. Zero buffering hangs in the wait (a
/// `deadlock` with `--deadlock potential`); with buffering it ends whatever
/// the flag (holds with `--deadlock absolute`). Printing the flag shows that a
/// buffering MPI does return flag 0 here.
///
/// mpirun, np 2 (three runs each): default: 0, 0, 0 (flag 1); zero-buffer:
/// 124, 124, 124; `--mca btl self,tcp` with its default eager limit: 0, 0, 0
/// with flag 0 every time (buffered, yet the test found the send incomplete).
const ISEND_TEST_ONCE_WAIT_NEEDS_BUFFER: &str = r#"// NP=2 rank 0 Isend tag 0, one MPI_Test, MPI_Wait if the flag is 0, then Send tag 1; rank 1 receives tag 1 first: zero-buffer hang
#include <mpi.h>
#ifdef REALRUN
#include <stdio.h>
#include <unistd.h>
#endif
int main(int argc, char *argv[]) {
    int rank, x = 3, y = 0, flag = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
#ifdef REALRUN
        printf("flag %d\n", flag);
#endif
    } else {
#ifdef REALRUN
        usleep(300000);
#endif
        MPI_Recv(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn isend_test_once_wait_needs_buffer() {
    check(
        "2",
        ISEND_TEST_ONCE_WAIT_NEEDS_BUFFER,
        // at the wait (line 16), or at the test (line 14) by the livelock
        // check, which sees that no schedule from there completes anything
        Violated("deadlock", None),
        Holds,
    );
}

/// Rank 0 polls `MPI_Iprobe(MPI_ANY_SOURCE)` until the probe reports rank 2;
/// ranks 1 and 2 each send one message. MPI promises no fairness among the
/// senders a wildcard matches (MPI 4.0, 3.5: a message may be overtaken for
/// ever by messages of other sources), and a probe reports the message a
/// receive with its arguments would take: an MPI that keeps reporting rank
/// 1's older message never lets the loop end. Open MPI does so when rank 2 is
/// late. tass used to assume the probe would eventually report rank 2 (the
/// livelock check saw a schedule that makes progress and stopped there); the
/// check now also looks for a cycle of states that MPI and the scheduler may
/// follow for ever (crates/verify/src/real/livelock/fair.rs) and reports it
/// as `deadlock`.
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:124; zero-buffer: -1:124 0:0 1:0
/// 2:124 (earlier runs: -1:0).
const IPROBE_ANY_SOURCE_UNFAIR: &str = r#"// NP=3 rank 0 polls Iprobe(ANY_SOURCE) until it sees rank 2 (both senders send at once), receives both: spins for ever when MPI keeps reporting rank 1
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        do {
            MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
        } while (!(flag && st.MPI_SOURCE == 2));
        MPI_Recv(&y, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_any_source_unfair() {
    check(
        "3",
        IPROBE_ANY_SOURCE_UNFAIR,
        Violated("deadlock", Some(19)),
        Violated("deadlock", Some(19)),
    );
}

/// The correct twin: the probe names the sender it waits for.
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const IPROBE_NAMED_SOURCE: &str = r#"// NP=3 rank 0 polls Iprobe(2) (a named sender) until it finds rank 2's message, receives both: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        do {
            MPI_Iprobe(2, 0, MPI_COMM_WORLD, &flag, &st);
        } while (!flag);
        assert(st.MPI_SOURCE == 2);
        MPI_Recv(&y, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_named_source() {
    check("3", IPROBE_NAMED_SOURCE, Holds, Holds);
}

/// A variant that keeps the wildcard loop but lets rank 1 send only after
/// rank 2's message was received: while rank 0 polls, the probe has one
/// sender to report, so MPI's lack of fairness cannot bite.
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const IPROBE_ANY_SOURCE_ONE_SENDER_AT_A_TIME: &str = r#"// NP=3 rank 0 polls Iprobe(ANY_SOURCE) until it sees rank 2, and only then lets rank 1 send: holds (the probe has one sender to report)
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        do {
            MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
        } while (!(flag && st.MPI_SOURCE == 2));
        MPI_Recv(&y, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        if (rank == 1)
            MPI_Recv(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_any_source_one_sender_at_a_time() {
    check("3", IPROBE_ANY_SOURCE_ONE_SENDER_AT_A_TIME, Holds, Holds);
}

/// A variant where the probe can report either sender and every answer ends
/// the loop (first come, first served): the fair-cycle search runs and finds
/// no cycle MPI may follow for ever (a probe that keeps missing a message
/// it could see breaks MPI's progress rule).
///
/// mpirun, np 3: default: -1:0 0:0 1:0 2:0; zero-buffer: -1:0 0:0 1:0 2:0.
const IPROBE_ANY_SOURCE_FIRST_COME: &str = r#"// NP=3 rank 0 takes two messages first come, first served: Iprobe(ANY_SOURCE) until a message is there, then receives from the sender it reports: holds
#include <mpi.h>
#include <assert.h>
#ifdef REALRUN
#include <stdlib.h>
#include <unistd.h>
#define DELAY() do { char *e_ = getenv("DR"); if (e_ && atoi(e_) == rank) usleep(300000); } while (0)
#else
#define DELAY()
#endif
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DELAY();
    if (rank == 0) {
        for (int k = 0; k < 2; k++) {
            do {
                MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
            } while (!flag);
            MPI_Recv(&y, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn iprobe_any_source_first_come() {
    check("3", IPROBE_ANY_SOURCE_FIRST_COME, Holds, Holds);
}
