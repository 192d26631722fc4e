//! Random C/MPI programs: a sequence of communication events (point-to-point messages
//! with wildcards, probes, nonblocking operations with tests and waits, pairwise
//! exchanges, fan-ins to a root with `MPI_ANY_SOURCE`, collectives, some of them under
//! a branch on the input), each followed by assertions on what arrived. Events are
//! emitted in one order for every rank, so most programs are deadlock-free with
//! buffering and some deadlock without it, or depend on the schedule: exactly what the
//! concrete runs under the default and the zero-buffer configuration tell apart.
//! `DT_DELAY(k);` marks points where the concrete build sleeps a random time.

use super::features::{Feature, Features};
use super::rng::Rng;
use super::{Input, Kind, Program};
use std::fmt::Write as _;

struct MpiGen<'a> {
    rng: &'a mut Rng,
    features: &'a Features,
    used: Features,
    procs: i64,
    body: String,
    event: i64,
    outputs: bool,
}

pub fn generate(rng: &mut Rng, features: &Features, name: &str) -> Program {
    let procs = rng.range(2, 3);
    let input = Input {
        name: "x".into(),
        lo: 0,
        hi: 1,
    };
    let mut g = MpiGen {
        rng,
        features,
        used: Features::new(),
        procs,
        body: String::new(),
        event: 0,
        outputs: false,
    };
    g.outputs = g.feature(Feature::SharedOutputs, 50);
    for _ in 0..2 + g.rng.below(3) {
        g.event += 1;
        g.one_event();
    }
    let mut src = String::new();
    let _ = writeln!(
        src,
        "/* difftest {name}: a generated MPI program for {procs} processes */"
    );
    src.push_str("#include <mpi.h>\n#include <assert.h>\n");
    src.push_str("#pragma TASS input {0 <= x && x <= 1} int\n#define x DT_INPUT(x)\n");
    src.push_str("#ifndef DT_DELAY\n#define DT_DELAY(k)\n#endif\n");
    if g.outputs {
        src.push_str("#pragma TASS output\nint result;\n");
    }
    src.push_str("\nint main(int argc, char **argv) {\n");
    src.push_str("  int rank, size, v, w = 0;\n  MPI_Status st;\n  MPI_Request req;\n");
    src.push_str("  MPI_Init(&argc, &argv);\n");
    src.push_str("  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n");
    src.push_str("  MPI_Comm_size(MPI_COMM_WORLD, &size);\n");
    src.push_str("  v = rank * 10 + x;\n");
    src.push_str(&g.body);
    src.push_str("  MPI_Finalize();\n  return 0;\n}\n");
    Program {
        name: name.into(),
        kind: Kind::Mpi {
            procs: procs as u32,
        },
        inputs: vec![input],
        source: src,
        features_used: g.used,
    }
}

impl MpiGen<'_> {
    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.body, "{}{text}", "  ".repeat(depth));
    }

    fn feature(&mut self, f: Feature, percent: u64) -> bool {
        if self.features.contains(&f) && self.rng.chance(percent) {
            self.used.insert(f);
            true
        } else {
            false
        }
    }

    fn delay(&mut self, depth: usize) {
        if self.rng.chance(50) {
            let k = self.event * 10 + self.rng.range(0, 9);
            self.line(depth, &format!("DT_DELAY({k});"));
        }
    }

    fn other_rank(&mut self, not: i64) -> i64 {
        (not + self.rng.range(1, self.procs - 1)) % self.procs
    }

    fn one_event(&mut self) {
        let e = self.event;
        self.line(1, &format!("/* event {e} */"));
        match self.rng.below(10) {
            0..=2 => self.point_to_point(),
            3 | 4 => self.exchange(),
            5 | 6 => self.fan_in(),
            _ => self.collective(),
        }
        if self.outputs && self.rng.chance(50) {
            self.line(1, "result = v;");
            self.line(1, "MPI_Barrier(MPI_COMM_WORLD);");
            self.line(1, "assert(result == v);");
        }
    }

    /// The sending half: `m` (already declared) to `dest` with `tag`.
    fn send(&mut self, depth: usize, dest: &str, tag: i64, blocking_only: bool) {
        let call = match self.rng.below(5) {
            0 | 1 => format!("MPI_Send(&m, 1, MPI_INT, {dest}, {tag}, MPI_COMM_WORLD);"),
            2 => format!("MPI_Ssend(&m, 1, MPI_INT, {dest}, {tag}, MPI_COMM_WORLD);"),
            _ if blocking_only => {
                format!("MPI_Send(&m, 1, MPI_INT, {dest}, {tag}, MPI_COMM_WORLD);")
            }
            _ => {
                self.line(
                    depth,
                    &format!("MPI_Isend(&m, 1, MPI_INT, {dest}, {tag}, MPI_COMM_WORLD, &req);"),
                );
                self.delay(depth);
                "MPI_Wait(&req, &st);".into()
            }
        };
        self.line(depth, &call);
    }

    /// The receiving half into `w`, from `source` (a rank or `MPI_ANY_SOURCE`).
    fn receive(&mut self, depth: usize, source: &str, tag: &str) {
        let recv = format!("MPI_Recv(&w, 1, MPI_INT, {source}, {tag}, MPI_COMM_WORLD, &st);");
        match self.rng.below(6) {
            0 | 1 => self.line(depth, &recv),
            2 => {
                self.line(
                    depth,
                    &format!("MPI_Probe({source}, {tag}, MPI_COMM_WORLD, &st);"),
                );
                self.line(
                    depth,
                    "MPI_Recv(&w, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);",
                );
            }
            3 if self.feature(Feature::IprobeSsend, 80) => {
                self.line(depth, "int flag = 0;");
                self.line(
                    depth,
                    &format!(
                        "while (!flag) MPI_Iprobe({source}, {tag}, MPI_COMM_WORLD, &flag, &st);"
                    ),
                );
                self.line(depth, &recv);
            }
            4 if self.feature(Feature::TestLoop, 80) => {
                self.line(
                    depth,
                    &format!("MPI_Irecv(&w, 1, MPI_INT, {source}, {tag}, MPI_COMM_WORLD, &req);"),
                );
                self.line(depth, "int done = 0;");
                self.line(depth, "while (!done) MPI_Test(&req, &done, &st);");
            }
            _ => {
                self.line(
                    depth,
                    &format!("MPI_Irecv(&w, 1, MPI_INT, {source}, {tag}, MPI_COMM_WORLD, &req);"),
                );
                self.delay(depth);
                self.line(depth, "MPI_Wait(&req, &st);");
            }
        }
    }

    /// An assertion on `w` after it came from `from` in event `e`: true when the
    /// intended message arrived, or false for one value of `x`.
    fn check_received(&mut self, depth: usize, from: &str) {
        let e = self.event;
        match self.rng.below(4) {
            0 | 1 => self.line(depth, &format!("assert(w == {from} * 10 + x + {e});")),
            2 => self.line(depth, &format!("assert(w != {from} * 10 + {e} + 1);")),
            _ => self.line(depth, "v = v + w;"),
        }
    }

    fn point_to_point(&mut self) {
        let e = self.event;
        let s = self.rng.range(0, self.procs - 1);
        let r = self.other_rank(s);
        let tag = if self.rng.chance(20) {
            "MPI_ANY_TAG".to_string()
        } else {
            e.to_string()
        };
        let source = if self.rng.chance(40) {
            "MPI_ANY_SOURCE".to_string()
        } else {
            s.to_string()
        };
        self.line(1, &format!("if (rank == {s}) {{"));
        self.line(2, &format!("int m = rank * 10 + x + {e};"));
        self.delay(2);
        self.send(2, &r.to_string(), e, false);
        self.line(1, &format!("}} else if (rank == {r}) {{"));
        self.delay(2);
        self.receive(2, &source, &tag);
        self.check_received(2, &s.to_string());
        self.line(1, "}");
    }

    /// Two ranks send to each other, then receive: needs buffering unless nonblocking.
    fn exchange(&mut self) {
        let e = self.event;
        let a = self.rng.range(0, self.procs - 1);
        let b = self.other_rank(a);
        self.line(1, &format!("if (rank == {a} || rank == {b}) {{"));
        self.line(2, &format!("int peer = {} - rank;", a + b));
        self.line(2, &format!("int m = rank * 10 + x + {e};"));
        self.delay(2);
        if self.feature(Feature::Sendrecv, 50) {
            self.line(
                2,
                &format!(
                    "MPI_Sendrecv(&m, 1, MPI_INT, peer, {e}, &w, 1, MPI_INT, peer, {e}, MPI_COMM_WORLD, &st);"
                ),
            );
        } else if self.rng.chance(40) {
            self.line(
                2,
                &format!("MPI_Irecv(&w, 1, MPI_INT, peer, {e}, MPI_COMM_WORLD, &req);"),
            );
            self.send(2, "peer", e, true);
            self.line(2, "MPI_Wait(&req, &st);");
        } else {
            self.send(2, "peer", e, false);
            self.delay(2);
            self.receive(2, "peer", &e.to_string());
        }
        self.check_received(2, "peer");
        self.line(1, "}");
    }

    /// Every other rank sends to a root, which receives them from `MPI_ANY_SOURCE`.
    fn fan_in(&mut self) {
        let e = self.event;
        let root = self.rng.range(0, self.procs - 1);
        self.line(1, &format!("if (rank == {root}) {{"));
        self.line(2, "int sum = 0, first = -1;");
        self.line(2, "for (int k = 1; k < size; k++) {");
        self.delay(3);
        self.receive(3, "MPI_ANY_SOURCE", &e.to_string());
        self.line(3, "if (first < 0) first = st.MPI_SOURCE;");
        self.line(3, "sum = sum + w;");
        self.line(2, "}");
        let all: i64 = (0..self.procs)
            .filter(|r| *r != root)
            .map(|r| r * 10 + e)
            .sum();
        let senders = self.procs - 1;
        match self.rng.below(3) {
            0 => self.line(2, &format!("assert(sum == {all} + {senders} * x);")),
            1 => {
                let guess = self.other_rank(root);
                self.line(2, &format!("assert(first == {guess});"));
            }
            _ => self.line(2, "v = v + sum;"),
        }
        self.line(1, "} else {");
        self.line(2, &format!("int m = rank * 10 + x + {e};"));
        self.delay(2);
        self.send(2, &root.to_string(), e, false);
        self.line(1, "}");
    }

    fn collective(&mut self) {
        let root = self.rng.range(0, self.procs - 1);
        let guard = match self.rng.below(10) {
            0 | 1 => Some("x > 0".to_string()),
            // A collective some rank skips: a mismatch.
            2 => Some(format!("rank != {}", self.rng.range(0, self.procs - 1))),
            _ => None,
        };
        let depth = if let Some(g) = &guard {
            self.line(1, &format!("if ({g}) {{"));
            2
        } else {
            1
        };
        self.delay(depth);
        match self.rng.below(4) {
            0 => self.line(depth, "MPI_Barrier(MPI_COMM_WORLD);"),
            1 => {
                self.line(
                    depth,
                    &format!(
                        "w = v;\n{}MPI_Bcast(&w, 1, MPI_INT, {root}, MPI_COMM_WORLD);",
                        "  ".repeat(depth)
                    ),
                );
                let off = self.rng.range(0, 1) * self.rng.range(0, 1);
                self.line(depth, &format!("assert(w == {} + x);", root * 10 + off));
            }
            2 => {
                self.line(
                    depth,
                    &format!("MPI_Reduce(&v, &w, 1, MPI_INT, MPI_SUM, {root}, MPI_COMM_WORLD);"),
                );
                self.line(depth, &format!("if (rank == {root}) v = w;"));
            }
            _ => {
                let op = *self.rng.pick(&["MPI_SUM", "MPI_MAX", "MPI_MIN"]);
                self.line(
                    depth,
                    &format!("MPI_Allreduce(&v, &w, 1, MPI_INT, {op}, MPI_COMM_WORLD);"),
                );
                let c = self.rng.range(0, 40);
                self.line(depth, &format!("assert(w != {c});"));
            }
        }
        if guard.is_some() {
            self.line(1, "}");
        }
    }
}
