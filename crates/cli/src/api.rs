//! The public interface of `tass-cli`: the entry point of the `tass` binary.

use clap::Parser as _;

use crate::args::{rewrite_paper_spellings, Cli};

/// Runs the `tass` command line (arguments from the environment) and returns the
/// process exit status: 0 holds, 1 violated, 2 usage or input error, 3 inconclusive.
pub fn main() -> i32 {
    // Symbolic values can grow without bound in a search that never repeats a
    // state (a counter over a symbolic input in an endless loop), and the
    // simplifier and the canonicaliser recurse over them: on the main thread's
    // 8 MB stack such a run crashed with a stack overflow before reaching its
    // --max-states or --timeout. A large stack, committed only as it is used,
    // lets the run end with its honest verdict instead.
    let args: Vec<String> = std::env::args().collect();
    let worker = std::thread::Builder::new()
        .name("tass".into())
        .stack_size(SEARCH_STACK_SIZE)
        .spawn(move || run_with_args(args));
    match worker {
        Ok(handle) => handle.join().unwrap_or(101),
        Err(_) => run_with_args(std::env::args().collect()),
    }
}

/// The stack of the thread that runs `tass` (virtual memory: pages are
/// committed only when touched).
const SEARCH_STACK_SIZE: usize = 4 << 30;

/// Runs `tass` with the given arguments (the first is the program name).
pub fn run_with_args(args: Vec<String>) -> i32 {
    let args = rewrite_paper_spellings(args);
    let args_copy = args.clone();
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            // --help and --version are not errors.
            if !error.use_stderr() {
                let _ = error.print();
                return 0;
            }
            let _ = error.print();
            if wants_json(&args_copy) {
                // Tools asked for JSON: give them the error object on stdout too.
                let text = error.render().to_string();
                let report = tass_verify::api::Report::error(text.trim().to_string());
                use std::io::Write as _;
                // A closed stdout must not become a panic.
                let _ = writeln!(std::io::stdout(), "{}", report.to_json());
            }
            return 2;
        }
    };
    crate::run::run(cli)
}

/// True if the arguments ask for `--format json` (looked at even when they do not
/// parse, so that a usage error is reported as JSON too).
fn wants_json(args: &[String]) -> bool {
    args.windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || args.iter().any(|a| a == "--format=json")
}
