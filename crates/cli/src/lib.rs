//! `tass-cli`: the `tass` command line.
//!
//! ```text
//! tass verify  [OPTIONS] FILE...
//! tass compare [OPTIONS] --spec FILE... --impl FILE...
//! tass compare [OPTIONS] SPEC.c IMPL.c
//! tass show    [OPTIONS] FILE...
//! tass replay  [OPTIONS] TRACE.json
//! ```
//!
//! The options are DESIGN.md's (`-n/--procs`, `--spec-procs`, `--impl-procs`,
//! `-i/--input NAME=VALUE`, `--deadlock`, `--prover`, `--arith`, `--max-states`,
//! `--timeout`, `--max-violations`, `--format text|json|sarif`, `--trace FILE`,
//! `--stats`, `-q`, `-v`, `-I/--include-dir`, `-D`; and `--signed-overflow`, which
//! DESIGN.md does not list yet), and the TASS paper's spellings
//! are accepted verbatim (`-np=N`, `-np1=N`, `-np2=N`, `-inputNAME=VALUE`): they are
//! rewritten to the long options before parsing.
//!
//! The exit status is the verdict's: 0 every checked property holds, 1 a violation
//! was found, 2 a usage or input error, 3 inconclusive. The crate is a thin layer: the
//! front end (`tass-front`) turns files into models, `tass-verify` checks them and
//! builds the report, which this crate prints.
//!
//! ```
//! // Usage errors exit 2 and never panic; --help exits 0.
//! assert_eq!(tass_cli::api::run_with_args(vec!["tass".into()]), 2);
//! assert_eq!(tass_cli::api::run_with_args(vec!["tass".into(), "--help".into()]), 0);
//! assert_eq!(
//!     tass_cli::api::run_with_args(vec!["tass".into(), "verify".into(), "/nonexistent.c".into()]),
//!     2
//! );
//! ```

pub mod api;
mod args;
mod bounds;
mod error;
mod frontend;
mod merge;
mod progress;
mod replay;
mod run;
