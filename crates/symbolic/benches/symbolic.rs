//! Benchmarks: interning throughput and canonical-form construction.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tass_symbolic::api::{ExprFactory, Type};

fn interning(c: &mut Criterion) {
    let f = ExprFactory::new();
    let x = f.symbol("x", Type::Int);
    let y = f.symbol("y", Type::Int);
    // Re-interning an existing expression: hash + lookup.
    c.bench_function("intern/existing x+y", |b| {
        b.iter(|| f.add(black_box(x), black_box(y)))
    });
    c.bench_function("intern/existing constant", |b| {
        b.iter(|| f.int(black_box(12345)))
    });
    // New nodes: a fresh constant every iteration.
    let mut k = 0i64;
    c.bench_function("intern/new constant", |b| {
        b.iter(|| {
            k += 1;
            f.int(black_box(k))
        })
    });
}

fn polynomials(c: &mut Criterion) {
    let f = ExprFactory::new();
    let xs: Vec<_> = (0..8)
        .map(|i| f.symbol(&format!("X{i}"), Type::Int))
        .collect();
    let p = f.add_all(&Type::Int, xs[..4].iter().copied()); // X0+X1+X2+X3
    let q = f.add_all(&Type::Int, xs[4..].iter().copied()); // X4+..+X7
    let small = f.add(xs[0], f.int(1));
    c.bench_function("poly/add 2 small", |b| {
        b.iter(|| f.add(black_box(small), black_box(xs[1])))
    });
    c.bench_function("poly/mul 2 small", |b| {
        b.iter(|| f.mul(black_box(small), black_box(xs[1])))
    });
    c.bench_function("poly/add 4+4 terms", |b| {
        b.iter(|| f.add(black_box(p), black_box(q)))
    });
    c.bench_function("poly/mul 4x4 terms", |b| {
        b.iter(|| f.mul(black_box(p), black_box(q)))
    });
    let pq = f.mul(p, q);
    c.bench_function("poly/mul 16x16 terms", |b| {
        b.iter(|| f.mul(black_box(pq), black_box(pq)))
    });
    c.bench_function("rel/x < y", |b| {
        b.iter(|| f.lt(black_box(xs[0]), black_box(xs[1])))
    });
    let r1 = f.lt(xs[0], xs[1]);
    let r2 = f.eq(xs[2], f.int(3));
    c.bench_function("bool/and of relations", |b| {
        b.iter(|| f.and(black_box(r1), black_box(r2)))
    });
    let rx = f.symbol("r", Type::Real);
    let ry = f.symbol("s", Type::Real);
    let sum = f.add(rx, ry);
    c.bench_function("real/(r+s)/s", |b| {
        b.iter(|| f.div(black_box(sum), black_box(ry)))
    });
    // Building a fresh small expression from scratch in a fresh factory
    // (includes allocation of new nodes).
    c.bench_function("build/fresh X0*X0 + 2*X1 + 16", |b| {
        b.iter_batched(
            ExprFactory::new,
            |g| {
                let x0 = g.symbol("X0", Type::Int);
                let x1 = g.symbol("X1", Type::Int);
                let e = g.add(g.mul(x0, x0), g.add(g.mul(g.int(2), x1), g.int(16)));
                black_box(e);
                g
            },
            criterion::BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, interning, polynomials);
criterion_main!(benches);
