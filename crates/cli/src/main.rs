// The search allocates and frees many small values (expressions, process
// states); mimalloc's per-thread free lists are measurably faster here than
// glibc's malloc (docs/PERFORMANCE.md, session 5). The `system-alloc`
// feature keeps the system allocator, for heap profilers (heaptrack).
#[cfg(not(feature = "system-alloc"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(tass_cli::api::main());
}
