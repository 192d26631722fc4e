fn main() {
    std::process::exit(tass_cli::api::main());
}
