//! `--stats` counts the arrival steps at invariant loop heads (`loop arrivals`, JSON
//! `stats.loop_arrivals`): tass executes an arrival as a transition of its own, before
//! the loop head's branch, where the LISE paper's next-state function (its Fig. 3) does
//! the arrival inside the branch transition itself. `transitions - loop_arrivals` is
//! the figure that compares with the paper's Fig. 5 (docs/PERFORMANCE.md, session 17).
//!
//! The programs are the fevs ones (their verdicts confirmed by `fevs/lise_check.py`,
//! see their headers: lise_count.c with mpirun -np 10, N = 0, 1, 4, 9).

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{inline, report};
use serde_json::Value;

/// Runs `tass ARGS --stats --format json` (or plain text) in `fevs/`.
fn tass(args: &[&str], json: bool) -> (i32, Value, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tass"));
    cmd.current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fevs"))
        .args(args)
        .args(["--stats", "--timeout", "120"]);
    if json {
        cmd.args(["--format", "json"]);
        let (code, r) = report(cmd.output().expect("run tass"));
        (code, r, String::new())
    } else {
        let out = cmd.output().expect("run tass");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code().unwrap_or(-1), Value::Null, text)
    }
}

fn arrivals(r: &Value) -> u64 {
    r["stats"]["loop_arrivals"].as_u64().unwrap_or(0)
}

/// count at 10 processes explores one path: each process arrives once on entry and
/// once at the end of its first iteration (whose state matches the entry's), so 20 of
/// its transitions are arrivals.
#[test]
fn count_arrives_twice_per_process() {
    let (code, r, _) = tass(&["verify", "-n", "10", "mpi/lise_count.c"], true);
    assert_eq!((code, &r["verdict"]), (0, &Value::from("holds")), "{r:#}");
    assert_eq!(arrivals(&r), 20, "{r:#}");
    let transitions = r["stats"]["transitions"].as_u64().unwrap_or(0);
    assert!(transitions > 20, "{r:#}");
    let (_, _, text) = tass(&["verify", "-n", "10", "mpi/lise_count.c"], false);
    assert!(text.contains("loop arrivals 20"), "{text}");
}

/// The broken twin (mpirun -np 10: the invariant fails at the second composed arrival):
/// its arrivals are counted up to the violation.
#[test]
fn a_violated_run_counts_its_arrivals_too() {
    let (code, r, _) = tass(&["verify", "-n", "10", "mpi/lise_count_bad.c"], true);
    assert_eq!(
        (code, &r["verdict"]),
        (1, &Value::from("violated")),
        "{r:#}"
    );
    assert!(arrivals(&r) >= 10, "{r:#}");
}

/// One process (classic LISE) and `tass compare` (both programs' arrivals) count too;
/// a run without invariant loops has no such field and no such words.
#[test]
fn sequential_compare_and_plain_runs() {
    let (code, r, _) = tass(&["verify", "seq/lise_matrix.c"], true);
    assert_eq!((code, &r["verdict"]), (0, &Value::from("holds")), "{r:#}");
    let transitions = r["stats"]["transitions"].as_u64().unwrap_or(0);
    assert!(arrivals(&r) > 0 && arrivals(&r) < transitions, "{r:#}");
    let (code, r, _) = tass(
        &[
            "compare",
            "--spec",
            "seq/lise_mean_spec.c",
            "--impl",
            "seq/lise_mean_running.c",
        ],
        true,
    );
    assert_eq!((code, &r["verdict"]), (0, &Value::from("holds")), "{r:#}");
    assert!(arrivals(&r) >= 2, "{r:#}");
    // a loop without an invariant (gcc: prints 3, exit 0)
    let plain = inline(
        "#include <stdio.h>\nint main(void) {\n    int s = 0;\n    \
         for (int i = 0; i < 3; i++)\n        s += 1;\n    printf(\"%d\\n\", s);\n    return 0;\n}\n",
    );
    let plain = plain.to_str().expect("utf-8 path");
    let (code, r, _) = tass(&["verify", plain], true);
    assert_eq!((code, &r["verdict"]), (0, &Value::from("holds")), "{r:#}");
    assert!(r["stats"].get("loop_arrivals").is_none(), "{r:#}");
    let (_, _, text) = tass(&["verify", plain], false);
    assert!(
        text.contains("stats:") && !text.contains("loop arrivals"),
        "{text}"
    );
}
