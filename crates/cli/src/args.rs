//! The command line: DESIGN.md's options (clap), and the paper's single-dash
//! spellings (`-np=N`, `-np1=N`, `-np2=N`, `-inputNAME=VALUE`) rewritten to them
//! before clap sees the arguments.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use tass_verify::api::{Arith, DeadlockMode, FairnessMode, MatchMode, ProverChoice, Reduction};

/// `tass`: verify C and C/MPI programs by symbolic execution and model checking.
#[derive(Parser, Debug)]
#[command(
    name = "tass",
    version,
    about = "Verify C and C/MPI programs by symbolic execution and model checking",
    after_help = "Exit status: 0 all checked properties hold; 1 a violation was found; \
                  2 usage or input error; 3 inconclusive (a limit was reached or the prover \
                  could not decide).\nThe paper's spellings work too: \
                  tass compare -np2=10 -inputB=100 adder_seq.c adder_par.c"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Check every property of one program (its files form one program).
    Verify(VerifyArgs),
    /// Check that an implementation computes the same outputs as a specification.
    Compare(CompareArgs),
    /// Print the model extracted from a program.
    Show(ShowArgs),
    /// Run a counterexample (a `--trace` file) concretely: gcc with sanitizers, or
    /// mpicc and mpirun; says whether the violation was reproduced.
    Replay(ReplayArgs),
    /// Combine the JSON reports of the shards of one `--shard K/N` split into
    /// one verdict (holds only if every shard held).
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub(crate) struct MergeArgs {
    /// The shards' reports (`tass verify|compare --shard K/N --format json`).
    #[arg(required = true, value_name = "RESULT.json")]
    pub results: Vec<PathBuf>,
    /// Output format (text or json).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
    Sarif,
}

/// When text output is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    Always,
    Never,
}

/// A parser for an option whose values are `names`, each read by the option type's
/// own `FromStr` (the types live in the crates that use them: `--help` lists the
/// names, and a wrong one is refused with them).
fn one_of<T>(names: &'static [&'static str]) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
    T::Err: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
{
    PossibleValuesParser::new(names).try_map(|text| text.parse::<T>())
}

/// Preprocessor options (all commands).
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct SourceArgs {
    /// Search this folder for `#include "..."` files (repeatable).
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Define a macro, `NAME` or `NAME=VALUE` (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
}

/// Options of `verify` and `compare`.
#[derive(Args, Debug, Clone)]
pub(crate) struct CheckArgs {
    /// Fix an input: `NAME=VALUE` (repeatable).
    #[arg(short = 'i', long = "input", value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,
    /// Which deadlocks to look for.
    #[arg(long, default_value = "potential", value_parser = one_of::<DeadlockMode>(&["potential", "absolute", "none"]))]
    pub deadlock: DeadlockMode,
    /// The prover: built-in, an SMT solver, or built-in then the first solver found.
    #[arg(long, default_value = "auto", value_parser = one_of::<ProverChoice>(&["auto", "builtin", "z3", "cvc5", "yices"]))]
    pub prover: ProverChoice,
    /// The arithmetic floating-point values are taken in.
    #[arg(long, default_value = "real", value_parser = one_of::<Arith>(&["real", "ieee", "herbrand"]))]
    pub arith: Arith,
    /// Also report signed integer overflow (property signed-overflow; off by default).
    #[arg(long)]
    pub signed_overflow: bool,
    /// The partial-order reduction: `urgent` (the default) or `off` (the full
    /// search, to check a reduced run against; far more states). Given
    /// explicitly as `urgent`, it is refused with an ltl formula using `X`
    /// (which the default then checks unreduced).
    #[arg(long, value_parser = one_of::<Reduction>(&["urgent", "off"]))]
    pub por: Option<Reduction>,
    /// Store states modulo permutations of the interchangeable MPI processes
    /// (the ranks no literal names, found by a taint analysis of the rank;
    /// refused with a warning, running without it, when the analysis is not
    /// clean). See the guide, "Interchangeable worker processes".
    #[arg(long)]
    pub worker_symmetry: bool,
    /// The runs `#pragma TASS ltl` formulas are checked on: weakly fair ones
    /// (a process enabled forever moves infinitely often; the default) or all.
    #[arg(long, default_value = "weak", value_parser = one_of::<FairnessMode>(&["weak", "none"]))]
    pub fairness: FairnessMode,
    /// Among the processes the reduction may explore alone, take one with the
    /// fewest collective-assertion snapshots queued (fewer states for
    /// programs whose processes meet at their collective assertions).
    #[arg(long)]
    pub cqmin: bool,
    /// Stop (inconclusive) after this many states.
    #[arg(long, value_name = "N")]
    pub max_states: Option<u64>,
    /// Stop (inconclusive) after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Stop (inconclusive) when the process's resident memory exceeds this many
    /// megabytes (MiB), instead of being killed by the system.
    #[arg(long, value_name = "MB")]
    pub max_memory: Option<u64>,
    /// Explore only the K-th (from 0) of N disjoint parts of the search (of the
    /// specification's, in compare); `tass merge` combines the N reports
    /// (written with --format json).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Collective loop invariants: the second run with lagged loop records
    /// follows at most K incomplete loop records (loop arrivals one process
    /// is ahead of another) on a path; default max(8, 2n + 4).
    #[arg(long, value_name = "K")]
    pub max_lag: Option<usize>,
    /// Worker threads of the search (in compare: of the implementation's).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// Stop after this many distinct violations (0: find all).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub max_violations: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Colour the text output: on a terminal unless NO_COLOR is set (auto),
    /// always, or never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub color: ColorChoice,
    /// Write the (first) counterexample as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Accepted for CIVL users (also as `-enablePrintf=false`): tass never writes
    /// what the program prints, and a `printf` is a step local to its process for
    /// the reduction, so output costs no states; its arguments are still checked.
    #[arg(long)]
    pub no_printf: bool,
    /// Print statistics (states, transitions, prover calls, time, memory).
    #[arg(long)]
    pub stats: bool,
    /// After a violation, run it concretely (as `tass replay`) and say whether it
    /// was reproduced.
    #[arg(long)]
    pub replay: bool,
    /// Print only the verdict (and errors).
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more: the models' inputs and outputs, the prover used.
    #[arg(short, long)]
    pub verbose: bool,
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(Args, Debug)]
pub(crate) struct VerifyArgs {
    /// Number of processes.
    #[arg(short = 'n', long = "procs", value_name = "N", default_value_t = 1)]
    pub procs: usize,
    /// How a state is matched with the saved ones: `syntactic` (equal
    /// canonical forms; the default), `set` (same control, and the prover
    /// shows the sets of data valuations equal: ends searches whose symbolic
    /// values grow around a loop) or `subsume` (same control, data included
    /// in a saved state's; safety properties only, not with `ltl` pragmas).
    #[arg(long = "match", value_name = "MODE", default_value = "syntactic",
          value_parser = one_of::<MatchMode>(&["syntactic", "set", "subsume"]))]
    pub matching: MatchMode,
    #[command(flatten)]
    pub check: CheckArgs,
    /// The program's C files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The command line the program's `main` receives after its name
    /// (`argv[1]`...; `argc` is their count plus one), after `--`. Without
    /// `--`, `argc` is any value from 1 and `argv` is undefined.
    #[arg(last = true, value_name = "ARG")]
    pub program_args: Option<Vec<String>>,
}

#[derive(Args, Debug)]
pub(crate) struct CompareArgs {
    /// Number of processes of both programs (each unless given separately).
    #[arg(short = 'n', long = "procs", value_name = "N")]
    pub procs: Option<usize>,
    /// Number of processes of the specification.
    #[arg(long, value_name = "N")]
    pub spec_procs: Option<usize>,
    /// Number of processes of the implementation.
    #[arg(long, value_name = "N")]
    pub impl_procs: Option<usize>,
    /// The specification's C files.
    #[arg(long = "spec", value_name = "FILE", num_args = 1..)]
    pub spec: Vec<PathBuf>,
    /// The implementation's C files.
    #[arg(long = "impl", value_name = "FILE", num_args = 1..)]
    pub implementation: Vec<PathBuf>,
    /// Input arrays whose element positions the specification treats
    /// symmetrically (comma-separated, permuted alike): tass decides with the
    /// prover whether the specification's path conditions and outputs are
    /// invariant under every permutation of them (the hypotheses of the
    /// symmetry reduction theorem) and reports the answer; the implementation
    /// is still explored in full.
    #[arg(long, value_name = "ARRAYS", value_delimiter = ',')]
    pub symmetry: Vec<String>,
    #[command(flatten)]
    pub check: CheckArgs,
    /// `SPEC.c IMPL.c` (instead of --spec / --impl).
    #[arg(value_name = "SPEC.c IMPL.c")]
    pub files: Vec<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct ReplayArgs {
    /// The trace written by `tass verify --trace FILE`.
    #[arg(value_name = "TRACE.json")]
    pub trace: PathBuf,
    /// Write the harness here (default: a fresh folder under the temporary folder).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Seconds a concrete run may take; a run still going then has hung.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub time_limit: f64,
    /// How many times an MPI run is tried before giving up (schedules vary).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub attempts: usize,
}

#[derive(Args, Debug)]
pub(crate) struct ShowArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// The program's C files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Rewrites the paper's argument spellings into DESIGN.md's:
/// `-np=N` -> `--procs N`, `-np1=N` -> `--spec-procs N`, `-np2=N` -> `--impl-procs N`,
/// `-inputNAME=VALUE` -> `--input NAME=VALUE`, and CIVL's `-input_mpi_nprocs=N` ->
/// `--procs N`, `-enablePrintf=false` -> `--no-printf`. Arguments after `--` are left
/// alone.
pub(crate) fn rewrite_paper_spellings(args: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut rest_literal = false;
    for arg in args {
        if rest_literal {
            out.push(arg);
            continue;
        }
        if arg == "--" {
            rest_literal = true;
            out.push(arg);
            continue;
        }
        let rewritten = [
            ("-np=", "--procs"),
            ("-np1=", "--spec-procs"),
            ("-np2=", "--impl-procs"),
        ]
        .iter()
        .find_map(|(prefix, long)| arg.strip_prefix(prefix).map(|v| (*long, v.to_string())));
        if let Some((long, value)) = rewritten {
            out.push(long.to_string());
            out.push(value);
            continue;
        }
        // CIVL's switch for the program's output (tass prints none either way).
        match arg.as_str() {
            "-enablePrintf=false" => {
                out.push("--no-printf".to_string());
                continue;
            }
            "-enablePrintf=true" => continue,
            _ => {}
        }
        // CIVL's spelling of the process count, which would otherwise read as an
        // input named `_mpi_nprocs`.
        if let Some(n) = arg.strip_prefix("-input_mpi_nprocs=") {
            out.push("--procs".to_string());
            out.push(n.to_string());
            continue;
        }
        if let Some(binding) = arg.strip_prefix("-input") {
            // `-inputB=100`; not `-input` alone, nor `-input=...` (no name).
            if binding.contains('=') && !binding.starts_with('=') {
                out.push("--input".to_string());
                out.push(binding.to_string());
                continue;
            }
        }
        out.push(arg);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn paper_spellings_become_long_options() {
        let args = rewrite_paper_spellings(strings(&[
            "tass",
            "compare",
            "-np2=10",
            "-inputB=100",
            "-np1=1",
            "-np=3",
            "a.c",
            "b.c",
        ]));
        assert_eq!(
            args,
            strings(&[
                "tass",
                "compare",
                "--impl-procs",
                "10",
                "--input",
                "B=100",
                "--spec-procs",
                "1",
                "--procs",
                "3",
                "a.c",
                "b.c"
            ])
        );
        let parsed = Cli::try_parse_from(args).unwrap();
        let Command::Compare(c) = parsed.command else {
            panic!("not compare")
        };
        assert_eq!(c.impl_procs, Some(10));
        assert_eq!(c.check.inputs, vec!["B=100".to_string()]);
        assert_eq!(c.files.len(), 2);
    }

    #[test]
    fn civl_spellings_become_long_options() {
        let args = rewrite_paper_spellings(strings(&[
            "tass",
            "verify",
            "-input_mpi_nprocs=5",
            "-enablePrintf=false",
            "-enablePrintf=true",
            "-inputN=3",
            "a.c",
        ]));
        assert_eq!(
            args,
            strings(&[
                "tass",
                "verify",
                "--procs",
                "5",
                "--no-printf",
                "--input",
                "N=3",
                "a.c"
            ])
        );
    }

    #[test]
    fn literal_arguments_after_double_dash_are_kept() {
        let args = rewrite_paper_spellings(strings(&["tass", "verify", "--", "-np=3"]));
        assert_eq!(args[3], "-np=3");
    }

    #[test]
    fn design_options_parse() {
        let cli = Cli::try_parse_from([
            "tass",
            "verify",
            "-n",
            "4",
            "-i",
            "N=3",
            "--input",
            "M=2",
            "--deadlock",
            "absolute",
            "--prover",
            "builtin",
            "--max-states",
            "10",
            "--timeout",
            "1.5",
            "--format",
            "json",
            "--stats",
            "-q",
            "-I",
            "inc",
            "-D",
            "X=1",
            "a.c",
            "b.c",
        ])
        .unwrap();
        let Command::Verify(v) = cli.command else {
            panic!("not verify")
        };
        assert_eq!(v.procs, 4);
        assert_eq!(v.check.inputs.len(), 2);
        assert_eq!(v.check.deadlock, DeadlockMode::Absolute);
        assert_eq!(v.check.format, Format::Json);
        assert_eq!(v.files.len(), 2);
        assert_eq!(v.check.source.defines, vec!["X=1".to_string()]);
    }

    #[test]
    fn spec_and_impl_lists() {
        let cli = Cli::try_parse_from([
            "tass",
            "compare",
            "--spec",
            "s1.c",
            "s2.c",
            "--impl",
            "p.c",
            "--impl-procs",
            "4",
        ])
        .unwrap();
        let Command::Compare(c) = cli.command else {
            panic!("not compare")
        };
        assert_eq!(c.spec.len(), 2);
        assert_eq!(c.implementation.len(), 1);
        assert!(c.files.is_empty());
    }
}
