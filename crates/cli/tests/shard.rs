//! `--shard K/N`, `tass merge` and `--jobs N`: the merged verdict of the N
//! shards of a search equals the verdict of the whole search (fevs programs,
//! sequential and MPI, holding and violated), merge refuses what is not one
//! complete split, and `--jobs` changes no verdict.
//!
//! The expected verdicts are those of the fevs manifest (confirmed there by
//! concrete runs); these tests compare the split runs with the whole run.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::Value;

fn fevs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fevs")
}

fn scratch() -> PathBuf {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tass-shard-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).expect("create scratch folder");
    dir
}

/// Runs tass in the fevs folder: (exit status, stdout).
fn tass(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .current_dir(fevs())
        .args(args)
        .output()
        .expect("run tass");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Runs the N shards of `args`, writing their reports into `dir`; returns the
/// files.
fn run_shards(args: &[&str], n: u64, dir: &Path) -> Vec<PathBuf> {
    (0..n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut all = args.to_vec();
            all.extend(["--format", "json", "--shard", &shard]);
            let (_, out) = tass(&all);
            let report = json(&out);
            assert_eq!(report["shard"]["index"], k, "{report:#}");
            assert_eq!(report["shard"]["count"], n, "{report:#}");
            let file = dir.join(format!("shard{k}.json"));
            std::fs::write(&file, out).expect("write shard report");
            file
        })
        .collect()
}

fn merge(files: &[PathBuf]) -> (i32, Value) {
    let mut args = vec!["merge".to_string(), "--format".into(), "json".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out) = tass(&refs);
    (code, if code == 2 { Value::Null } else { json(&out) })
}

/// The whole run's verdict and exit status, and the merged verdict of N = 2,
/// 3 and 8 shards: all equal to `expected`.
fn shards_agree(args: &[&str], expected: &str) {
    let mut whole = args.to_vec();
    whole.extend(["--format", "json"]);
    let (code, out) = tass(&whole);
    let report = json(&out);
    assert_eq!(
        report["verdict"], expected,
        "whole run of {args:?}: {report:#}"
    );
    let first_property = report["violations"][0]["property"].clone();
    for n in [2, 3, 8] {
        let dir = scratch();
        let files = run_shards(args, n, &dir);
        let (merged_code, merged) = merge(&files);
        assert_eq!(
            merged["verdict"], expected,
            "{n} shards of {args:?}: {merged:#}"
        );
        assert_eq!(merged_code, code, "{n} shards of {args:?}: {merged:#}");
        assert_eq!(merged["shards"], n);
        if expected == "holds" && args[0] == "verify" {
            // Every run of the whole search ran in some shard: the same outputs.
            assert_eq!(
                merged["outputs"], report["outputs"],
                "{n} shards of {args:?}: {merged:#}"
            );
        }
        if expected == "violated" {
            // The same property (the shards may meet other violations first
            // with --max-violations 1, but these programs have one kind).
            let properties: Vec<&Value> = merged["violations"]
                .as_array()
                .expect("violations")
                .iter()
                .map(|v| &v["property"])
                .collect();
            assert!(properties.contains(&&first_property), "{merged:#}");
        }
    }
}

#[test]
fn sequential_verify_shards_agree() {
    shards_agree(&["verify", "-i", "B=8", "seq/factorial_iter.c"], "holds");
    shards_agree(&["verify", "-i", "B=5", "seq/factorial_bad.c"], "violated");
}

#[test]
fn sequential_compare_shards_agree() {
    shards_agree(
        &[
            "compare",
            "--spec",
            "seq/factorial_iter.c",
            "--impl",
            "seq/factorial_rec.c",
            "-i",
            "B=8",
        ],
        "holds",
    );
    shards_agree(
        &[
            "compare",
            "--spec",
            "seq/factorial_iter.c",
            "--impl",
            "seq/factorial_rec_bad.c",
            "-i",
            "B=5",
        ],
        "violated",
    );
}

#[test]
fn mpi_verify_shards_agree() {
    shards_agree(
        &[
            "verify",
            "-n",
            "3",
            "-i",
            "BN=3",
            "-i",
            "BL=1",
            "-i",
            "BM=1",
            "mpi/matmat_mw.c",
        ],
        "holds",
    );
    shards_agree(
        &["verify", "-n", "3", "-i", "BR=2", "mpi/ring_ok.c"],
        "holds",
    );
    shards_agree(
        &["verify", "-n", "3", "-i", "BR=2", "mpi/ring_bad.c"],
        "violated",
    );
}

#[test]
fn mpi_compare_shards_agree() {
    shards_agree(
        &[
            "compare",
            "--spec",
            "mpi/matmat_seq.c",
            "--impl",
            "mpi/matmat_mw.c",
            "--impl-procs",
            "3",
            "-i",
            "BN=3",
            "-i",
            "BL=2",
            "-i",
            "BM=2",
        ],
        "holds",
    );
    shards_agree(
        &[
            "compare",
            "--spec",
            "mpi/adder_seq.c",
            "--impl",
            "mpi/adder_par_bad.c",
            "--impl-procs",
            "3",
            "-i",
            "B=4",
        ],
        "violated",
    );
}

/// The implementation never terminates for X = 3 (`while (1)` flipping a
/// variable: a cycle the search closes): the whole comparison is
/// inconclusive (the outputs for X = 3 were never compared). Each shard
/// checks coverage only for the inputs of its own items at the cut (and of
/// no item): the shard that has the X = 3 subtree is inconclusive, and so
/// the merge. (Checked by hand: gcc, X = 3 spins.)
#[test]
fn compare_coverage_is_checked_per_shard() {
    let dir = scratch();
    let header = "#pragma TASS input {0 <= X && X <= 5}\nint X;\n#pragma TASS output\nint out;\n";
    let spec = dir.join("spec.c");
    let imp = dir.join("imp.c");
    std::fs::write(
        &spec,
        format!("{header}int main(void) {{ out = X; return 0; }}\n"),
    )
    .unwrap();
    std::fs::write(
        &imp,
        format!(
            "{header}int main(void) {{\n  int i = 0;\n  if (X == 1) out = X;\n  \
             else if (X == 3) {{ while (1) {{ i = 1 - i; }} }}\n  else out = X;\n  return 0;\n}}\n"
        ),
    )
    .unwrap();
    let (spec, imp) = (spec.display().to_string(), imp.display().to_string());
    shards_agree(&["compare", &spec, &imp], "inconclusive");
}

/// `--worker-symmetry` stores states modulo permutations of the interchangeable
/// ranks; every shard explores the prefix above the cut with the same
/// matching, so the items are the same in every shard and their union covers
/// the reduced search: the merged verdicts are the whole run's. (wildcard_race
/// _bad: the root's round-0 wildcard receive takes a round-1 message, mpirun
/// -np 3 with a delayed worker shows it; monte: the workers are interchangeable.)
#[test]
fn worker_symmetry_shards_agree() {
    shards_agree(
        &[
            "verify",
            "-n",
            "4",
            "--worker-symmetry",
            "mpi/wildcard_race_bad.c",
        ],
        "violated",
    );
    shards_agree(
        &[
            "verify",
            "-n",
            "4",
            "--worker-symmetry",
            "mpi/wildcard_race_ok.c",
        ],
        "holds",
    );
    shards_agree(
        &[
            "compare",
            "--arith",
            "ieee",
            "--worker-symmetry",
            "--spec",
            "mpi/montecarlo_sym_seq.c",
            "--impl",
            "mpi/montecarlo_sym_par.c",
            "--impl-procs",
            "4",
            "-i",
            "NPTS=3",
        ],
        "holds",
    );
}

/// Joint loop invariants run the two programs' loops in step along whole
/// runs: `--jobs 2` searches on one thread (with a warning) and gives the
/// verdict of one thread (before: inconclusive, the parts' coverage could not
/// be shown), `--shard` is refused by name.
#[test]
fn joint_loop_invariants_are_searched_whole() {
    let args = [
        "compare",
        "--spec",
        "seq/lise_mean_spec.c",
        "--impl",
        "seq/lise_mean_running.c",
    ];
    for jobs in ["1", "2"] {
        let mut all = args.to_vec();
        all.extend(["--format", "json", "--jobs", jobs]);
        let (code, out) = tass(&all);
        let report = json(&out);
        assert_eq!(
            (code, &report["verdict"]),
            (0, &Value::from("holds")),
            "{report:#}"
        );
    }
    let mut sharded = args.to_vec();
    sharded.extend(["--shard", "0/2"]);
    let (code, _) = tass(&sharded);
    assert_eq!(code, 2);
}

fn split_files(n: u64) -> Vec<PathBuf> {
    let dir = scratch();
    run_shards(&["verify", "-i", "B=8", "seq/factorial_iter.c"], n, &dir)
}

#[test]
fn merge_refuses_a_missing_shard() {
    let files = split_files(3);
    let (code, merged) = merge(&files[..2]);
    assert_eq!(code, 3);
    assert_eq!(merged["verdict"], "inconclusive");
    assert!(
        merged["reason"].as_str().unwrap_or("").contains("missing"),
        "{merged:#}"
    );
}

#[test]
fn merge_refuses_a_duplicate_shard() {
    let files = split_files(2);
    let (code, _) = merge(&[files[0].clone(), files[0].clone(), files[1].clone()]);
    assert_eq!(code, 2);
}

#[test]
fn merge_refuses_shards_of_different_searches() {
    let a = split_files(2);
    let dir = scratch();
    let b = run_shards(&["verify", "-i", "B=7", "seq/factorial_iter.c"], 2, &dir);
    assert_eq!(merge(&[a[0].clone(), b[1].clone()]).0, 2);
    // Different N.
    let c = split_files(3);
    assert_eq!(merge(&[a[0].clone(), a[1].clone(), c[2].clone()]).0, 2);
}

/// Two shards of "the same" command whose program includes a header that
/// changed between them explore different programs: the run key covers the
/// model built from the included files, so merge refuses them.
#[test]
fn merge_refuses_shards_whose_included_header_changed() {
    let dir = scratch();
    let program = dir.join("main.c");
    std::fs::write(
        &program,
        "#include <assert.h>\n#include \"bound.h\"\n\
         #pragma TASS input {0 <= n && n <= LIMIT}\nint n;\n\
         int main(void) { int s = 0; for (int i = 0; i < n; i++) s += i; assert(s >= 0); return 0; }\n",
    )
    .expect("write program");
    let header = dir.join("bound.h");
    let program = program.display().to_string();
    let args = ["verify", program.as_str()];
    std::fs::write(&header, "#define LIMIT 4\n").expect("write header");
    let first = run_shards(&args, 2, &subfolder(&dir, "a"));
    std::fs::write(&header, "#define LIMIT 6\n").expect("write header");
    let second = run_shards(&args, 2, &subfolder(&dir, "b"));
    // The same header on both sides: merged (each shard held).
    assert_eq!(merge(&first).0, 0);
    assert_eq!(merge(&[first[0].clone(), second[1].clone()]).0, 2);
}

/// Folder `name` in `dir`, created.
fn subfolder(dir: &Path, name: &str) -> PathBuf {
    let sub = dir.join(name);
    std::fs::create_dir_all(&sub).expect("create folder");
    sub
}

#[test]
fn merge_refuses_a_whole_run_and_bad_json() {
    let dir = scratch();
    let (_, whole) = tass(&[
        "verify",
        "-i",
        "B=8",
        "seq/factorial_iter.c",
        "--format",
        "json",
    ]);
    let file = dir.join("whole.json");
    std::fs::write(&file, whole).unwrap();
    assert_eq!(merge(&[file]).0, 2);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    assert_eq!(merge(&[bad]).0, 2);
}

/// Shards whose cuts differ (a changed digest: another tass or a
/// nondeterministic search) are never merged into holds.
#[test]
fn merge_refuses_shards_that_saw_different_cuts() {
    let files = split_files(2);
    let mut report = json(&std::fs::read_to_string(&files[1]).unwrap());
    report["shard"]["digest"] = "0000000000000000".into();
    std::fs::write(&files[1], report.to_string()).unwrap();
    let (code, _) = merge(&files);
    assert_eq!(code, 2);
}

#[test]
fn shard_argument_is_checked() {
    for bad in ["3/3", "1", "a/2", "1/0"] {
        let (code, _) = tass(&[
            "verify",
            "--shard",
            bad,
            "seq/factorial_iter.c",
            "-i",
            "B=3",
        ]);
        assert_eq!(code, 2, "--shard {bad}");
    }
    let (code, _) = tass(&["verify", "--jobs", "0", "seq/factorial_iter.c", "-i", "B=3"]);
    assert_eq!(code, 2);
}

/// `--jobs N` gives the verdict of `--jobs 1`.
#[test]
fn jobs_give_the_same_verdicts() {
    let runs: [(&[&str], &str); 5] = [
        (&["verify", "-i", "B=8", "seq/factorial_iter.c"], "holds"),
        (&["verify", "-i", "B=5", "seq/factorial_bad.c"], "violated"),
        (
            &[
                "verify",
                "-n",
                "3",
                "-i",
                "BN=3",
                "-i",
                "BL=1",
                "-i",
                "BM=1",
                "mpi/matmat_mw.c",
            ],
            "holds",
        ),
        (
            &["verify", "-n", "3", "-i", "BR=2", "mpi/ring_ok.c"],
            "holds",
        ),
        (
            &["verify", "-n", "3", "-i", "BR=2", "mpi/ring_bad.c"],
            "violated",
        ),
    ];
    for (args, expected) in runs {
        for jobs in ["1", "2", "3"] {
            let mut all = args.to_vec();
            all.extend(["--format", "json", "--jobs", jobs]);
            let (code, out) = tass(&all);
            let report = json(&out);
            assert_eq!(
                report["verdict"], expected,
                "--jobs {jobs} {args:?}: {report:#}"
            );
            assert_eq!(code, if expected == "holds" { 0 } else { 1 });
        }
    }
    // With shards: each shard on two threads, merged.
    let dir = scratch();
    let files: Vec<PathBuf> = (0..2)
        .map(|k| {
            let shard = format!("{k}/2");
            let (_, out) = tass(&[
                "verify",
                "-n",
                "3",
                "-i",
                "BR=2",
                "mpi/ring_ok.c",
                "--format",
                "json",
                "--jobs",
                "2",
                "--shard",
                &shard,
            ]);
            let file = dir.join(format!("s{k}.json"));
            std::fs::write(&file, out).unwrap();
            file
        })
        .collect();
    assert_eq!(merge(&files).1["verdict"], "holds");
}

/// `compare --jobs N` gives the verdict of one thread (parts of the
/// implementation's search, each a comparison of its own).
#[test]
fn compare_jobs_give_the_same_verdicts() {
    let runs: [(&[&str], &str); 3] = [
        (
            &[
                "compare",
                "--spec",
                "seq/factorial_iter.c",
                "--impl",
                "seq/factorial_rec.c",
                "-i",
                "B=6",
            ],
            "holds",
        ),
        (
            &[
                "compare",
                "--spec",
                "mpi/adder_seq.c",
                "--impl",
                "mpi/adder_par_bad.c",
                "--impl-procs",
                "3",
                "-i",
                "B=4",
            ],
            "violated",
        ),
        (
            &[
                "compare",
                "--spec",
                "mpi/matmat_seq.c",
                "--impl",
                "mpi/matmat_mw.c",
                "--impl-procs",
                "3",
                "-i",
                "BN=3",
                "-i",
                "BL=2",
                "-i",
                "BM=2",
            ],
            "holds",
        ),
    ];
    for (args, expected) in runs {
        for jobs in ["1", "2"] {
            let mut all = args.to_vec();
            all.extend(["--format", "json", "--jobs", jobs]);
            let (code, out) = tass(&all);
            let report = json(&out);
            assert_eq!(
                report["verdict"], expected,
                "--jobs {jobs} {args:?}: {report:#}"
            );
            assert_eq!(code, if expected == "holds" { 0 } else { 1 });
        }
    }
}

/// The verdict, exit status and violations (property, line) of one run.
fn outcome(args: &[&str], jobs: &str) -> common::Outcome {
    common::tass_json(args, jobs)
}

/// `--jobs N` (parts sharing their saved states below the cut) on programs
/// whose state graphs have cycles: a busy-waiting manager (`MPI_Iprobe` in a
/// loop returns rank 0 to the state it was in, a cycle of one process's steps
/// that the reduction must not close without letting rank 1 reach its check),
/// and a sequential program that spins for ever on one input. Every violation
/// (all of them: `--max-violations 0`) and verdict equal one thread's.
/// Confirmed concretely (`mpirun -np 3` and `-np 4`, also with unbuffered
/// sends): poll_cycle_ok prints total = 9 (np 3) and 15 (np 4) and ends;
/// poll_cycle_bad aborts at its BUG line for X = 3 and ends normally for
/// X = 2; spin_branches_bad aborts for A = B = 1, C = 0; spin_branches_ok
/// prints result = 4 for A = C = 1, B = 0, result = 3 for A = B = C = 1, and
/// still spins after 2 s for A = B = C = 0. spin_postponed (session 18, for
/// the proviso that spares states known to reach a fully expanded one): rank
/// 0 spins for ever in a local loop while rank 1, the only process that can
/// reach the check, is postponed; `mpirun -np 4` (also with unbuffered
/// sends): spin_postponed_bad aborts at its BUG line (X = 3), spin_postponed_ok
/// prints nothing and still spins after 10 s.
#[test]
fn shared_jobs_keep_verdicts_on_cycles() {
    let runs: [(&[&str], &str, Option<u64>); 10] = [
        (&["verify", "-n", "3", "mpi/poll_cycle_ok.c"], "holds", None),
        (&["verify", "-n", "4", "mpi/poll_cycle_ok.c"], "holds", None),
        (
            &["verify", "-n", "3", "mpi/poll_cycle_bad.c"],
            "violated",
            Some(51),
        ),
        (
            &["verify", "-n", "4", "mpi/poll_cycle_bad.c"],
            "violated",
            Some(51),
        ),
        (&["verify", "seq/spin_branches_ok.c"], "holds", None),
        (&["verify", "seq/spin_branches_bad.c"], "violated", Some(39)),
        (
            &["verify", "-n", "4", "mpi/spin_postponed_ok.c"],
            "holds",
            None,
        ),
        (
            &["verify", "-n", "6", "mpi/spin_postponed_ok.c"],
            "holds",
            None,
        ),
        (
            &["verify", "-n", "4", "mpi/spin_postponed_bad.c"],
            "violated",
            Some(44),
        ),
        (
            &["verify", "-n", "6", "mpi/spin_postponed_bad.c"],
            "violated",
            Some(44),
        ),
    ];
    for (args, expected, line) in runs {
        let one = outcome(args, "1");
        assert_eq!(one.0, expected, "--jobs 1 {args:?}: {one:?}");
        if let Some(line) = line {
            assert!(
                one.2.contains(&("assertion".to_string(), line)),
                "{args:?}: {one:?}"
            );
        }
        for jobs in ["2", "3", "4"] {
            let many = outcome(args, jobs);
            assert_eq!(many, one, "--jobs {jobs} against --jobs 1, {args:?}");
        }
    }
}

/// `compare --jobs N` with the implementation's saved states shared: the
/// terminal states of all parts are paired with the specification's and
/// their coverage checked once. Holding and violated pairs, MPI and
/// sequential (expected verdicts from the fevs manifest).
#[test]
fn shared_compare_jobs_keep_verdicts() {
    let runs: [(&[&str], &str); 3] = [
        (
            &[
                "compare",
                "--spec",
                "mpi/integrate_seq.c",
                "--impl",
                "mpi/integrate_mw.c",
                "--impl-procs",
                "4",
                "-i",
                "INTERVALS=2",
            ],
            "holds",
        ),
        (
            &[
                "compare",
                "--spec",
                "mpi/adder_seq.c",
                "--impl",
                "mpi/adder_par_bad.c",
                "--impl-procs",
                "4",
                "-i",
                "B=3",
            ],
            "violated",
        ),
        (
            &[
                "compare",
                "--spec",
                "seq/factorial_iter.c",
                "--impl",
                "seq/factorial_rec_bad.c",
                "-i",
                "B=4",
            ],
            "violated",
        ),
    ];
    for (args, expected) in runs {
        let one = outcome(args, "1");
        assert_eq!(one.0, expected, "--jobs 1 {args:?}: {one:?}");
        for jobs in ["2", "3"] {
            let many = outcome(args, jobs);
            assert_eq!(many, one, "--jobs {jobs} against --jobs 1, {args:?}");
        }
    }
}

/// Collective loop invariants whose verdict needs the second run with lagged loop
/// records (`fevs/mpi/lise_stagger.c`: holds, and its twin `lise_stagger_bad.c`:
/// violated, both confirmed under mpirun in the manifest): that run searches the
/// program whole, so under `--shard` a shard whose aligned part needs it is an error
/// naming `--shard` (exit 2), never a verdict of its own; a shard whose aligned part
/// decided alone keeps its verdict. Merged, the shards give the whole run's verdict or
/// are refused (error): never `holds` where the whole run did not prove it.
/// `lise_count.c` (aligned run alone) splits like any program.
#[test]
fn the_second_lise_run_is_refused_under_shard() {
    for (program, whole_verdict) in [
        ("mpi/lise_stagger.c", "holds"),
        ("mpi/lise_stagger_bad.c", "violated"),
    ] {
        let args = ["verify", "-n", "2", program];
        let mut whole = args.to_vec();
        whole.extend(["--format", "json"]);
        let (_, out) = tass(&whole);
        assert_eq!(json(&out)["verdict"], whole_verdict, "{out}");
        for n in [2, 3] {
            let dir = scratch();
            let files = run_shards(&args, n, &dir);
            let mut refused = 0;
            for file in &files {
                let report = json(&std::fs::read_to_string(file).expect("read shard"));
                match report["verdict"].as_str() {
                    Some("error") => {
                        refused += 1;
                        let error = report["error"].as_str().unwrap_or_default();
                        assert!(
                            error.contains("--shard") && error.contains("lagged"),
                            "{report:#}"
                        );
                    }
                    Some("holds") => {}
                    _ => panic!("{program} shard: {report:#}"),
                }
            }
            assert!(refused > 0, "{program}: no shard needed the second run");
            let (code, merged) = merge(&files);
            assert_eq!(code, 2, "{program} merged {n}: {merged:#}");
        }
    }
    shards_agree(&["verify", "-n", "3", "mpi/lise_count.c"], "holds");
}
