//! The public interface of `tass-cli`: the entry point of the `tass` binary.

/// Runs the `tass` command line and returns the process exit status.
pub fn main() -> i32 {
    eprintln!("tass: no command is implemented yet");
    2
}
