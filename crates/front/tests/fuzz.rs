//! The front end never panics: valid programs with random byte edits, and
//! arbitrary bytes, must give a model or diagnostics.
//! Cases: `PROPTEST_CASES` (default 2000 per property here).

use std::path::PathBuf;

use proptest::prelude::*;
use tass_front::api::*;

const SEEDS: &[&str] = &[
    include_str!("data/adder_seq.c"),
    include_str!("data/adder_par.c"),
    "#include <stdlib.h>\nstruct node { int v; struct node *next; };\nint main() { struct node *h = malloc(sizeof(struct node)); h->v = 1; h->next = NULL; free(h); return 0; }\n",
    "#pragma TASS input {N > 0} int\n#define N 4\nint a[N];\nint main() {\n  for (int i = 0; i < N; i++) a[i] = i > 2 ? i : -i;\n#pragma TASS assert forall {int k | 0 <= k && k < N} a[k] >= -2\n  switch (a[1]) { case 0: break; default: a[0]++; }\n  do { a[0] -= 1; } while (a[0] > 0 && a[1] < 3);\n  return 0;\n}\n",
    "#include <mpi.h>\n#include <stdio.h>\nint main(int argc, char **argv) { int r; MPI_Status s; MPI_Init(&argc, &argv); MPI_Comm_rank(MPI_COMM_WORLD, &r);\n if (r == 0) MPI_Send(&r, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); else MPI_Recv(&r, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &s);\n printf(\"%d\\n\", r); MPI_Finalize(); return 0; }\n",
];

const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "*",
    "&",
    "&&",
    "||",
    "++",
    "=",
    "==",
    "?",
    ":",
    "#pragma TASS ",
    "#pragma TASS input ",
    "#define X ",
    "#if ",
    "#endif\n",
    "#include ",
    "forall {int i | ",
    "PROC[",
    "spec.",
    "\\\n",
    "\"",
    "'",
    "/*",
    "*/",
    "goto ",
    "struct ",
    "union ",
    "int ",
    "double ",
    "return ",
    "sizeof(",
    "malloc(",
    "MPI_Send(",
    "\n",
    "0x",
    "1e",
];

#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    InsertByte(usize, u8),
    InsertToken(usize, usize),
    Replace(usize, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1usize..8).prop_map(|(p, n)| Edit::Delete(p, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Edit::InsertByte(p, b)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(p, t)| Edit::InsertToken(p, t)),
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Edit::Replace(p, b)),
    ]
}

fn apply(src: &str, edits: &[Edit]) -> String {
    let mut b = src.as_bytes().to_vec();
    for e in edits {
        let len = b.len().max(1);
        match *e {
            Edit::Delete(p, n) => {
                let p = p % len;
                let end = (p + n).min(b.len());
                if p < end {
                    b.drain(p..end);
                }
            }
            Edit::InsertByte(p, x) => b.insert(p % (b.len() + 1), x),
            Edit::InsertToken(p, t) => {
                let p = p % (b.len() + 1);
                for (k, x) in TOKENS[t].bytes().enumerate() {
                    b.insert(p + k, x);
                }
            }
            Edit::Replace(p, x) => {
                if !b.is_empty() {
                    let p = p % b.len();
                    b[p] = x;
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn run(src: String) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz_input.c");
    match load_sources(&[(file, src)], &FrontOptions::default()) {
        Ok(model) => {
            let _ = render_model(&model);
        }
        Err(d) => {
            // every diagnostic renders and has a message
            assert!(!d.0.is_empty());
            for x in &d.0 {
                assert!(!x.message.is_empty());
                let _ = x.to_string();
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(2000),
        failure_persistence: None,
        .. ProptestConfig::default()
    })]

    #[test]
    fn mutated_programs_never_panic(seed in 0..SEEDS.len(), edits in proptest::collection::vec(edit(), 1..6)) {
        run(apply(SEEDS[seed], &edits));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        run(String::from_utf8_lossy(&bytes).into_owned());
    }
}
