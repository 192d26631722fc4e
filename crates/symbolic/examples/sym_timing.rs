use std::time::Instant;
use tass_symbolic::api::{ExprFactory, Type};
fn cpu() -> f64 {
    // user+sys CPU seconds of this process from /proc/self/stat
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let f: Vec<&str> = s
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ut: f64 = f.get(11).and_then(|x| x.parse().ok()).unwrap_or(0.0);
    let st: f64 = f.get(12).and_then(|x| x.parse().ok()).unwrap_or(0.0);
    (ut + st) / 100.0
}
fn bench(name: &str, n: u32, mut g: impl FnMut(u32)) {
    let c0 = cpu();
    let t = Instant::now();
    for i in 0..n {
        g(i);
    }
    let wall = t.elapsed() / n;
    let c = (cpu() - c0) / n as f64 * 1e9;
    println!("{name:30} wall {wall:?}  cpu {c:.0}ns");
}
fn main() {
    let f = ExprFactory::new();
    let x = f.symbol("x", Type::Int);
    let y = f.symbol("y", Type::Int);
    let n = 2_000_000;
    bench("x+y existing", n, |_| {
        std::hint::black_box(f.add(std::hint::black_box(x), y));
    });
    bench("int existing", n, |_| {
        std::hint::black_box(f.int(std::hint::black_box(12345)));
    });
    bench("int new", n, |k| {
        std::hint::black_box(f.int(std::hint::black_box(k as i64 + 100000)));
    });
    let s = f.add(x, f.int(1));
    bench("(x+1)*y", n, |_| {
        std::hint::black_box(f.mul(std::hint::black_box(s), y));
    });
    bench("x<y", n, |_| {
        std::hint::black_box(f.lt(std::hint::black_box(x), y));
    });
    let x0 = f.symbol("X0", Type::Int);
    let x1 = f.symbol("X1", Type::Int);
    bench("X0*X0 + 2*X1 + 16", n / 4, |_| {
        std::hint::black_box(f.add(f.mul(x0, x0), f.add(f.mul(f.int(2), x1), f.int(16))));
    });
}
