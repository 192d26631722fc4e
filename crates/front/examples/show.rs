//! Prints the model of the given C files (what `tass show` prints).
use std::path::PathBuf;
use tass_front::api::*;

fn main() {
    let files: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    match load_program(&files, &FrontOptions::default()) {
        Ok(m) => print!("{}", render_model(&m)),
        Err(d) => {
            eprintln!("{d}");
            std::process::exit(2);
        }
    }
}
