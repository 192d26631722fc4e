//! Front-end throughput: preprocess + parse + translate a generated C file of
//! about 5,000 lines. Run: `cargo bench -p tass-front --bench front`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use tass_front::api::{load_sources, FrontOptions};

include!("support/generate.rs");

fn bench(c: &mut Criterion) {
    let src = generate(188);
    let lines = src.lines().count();
    let sources = vec![(PathBuf::from("generated.c"), src)];
    let opts = FrontOptions::default();
    assert!(load_sources(&sources, &opts).is_ok());
    c.bench_function(&format!("front_{lines}_lines"), |b| {
        b.iter(|| black_box(load_sources(black_box(&sources), &opts).is_ok()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
