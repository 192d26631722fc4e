//! A diagnostic for the parallel search (`TASS_DUMP_SAVED=FILE`, off unless
//! set): every state the search checks is written to `FILE` as one line
//! `TAG REGION HASH`, where `HASH` is a hash of a printed form of the state's
//! canonical form that does not depend on the engine, the run or the thread
//! (expressions printed from their structure, not their numbers). Comparing
//! the files of a `--jobs 1` and a `--jobs 2` run says whether two workers
//! store one state in two forms (docs/PERFORMANCE.md, session 17, jobs21).
//! Tags: `seen-save` / `seen-skip` (the saving heuristic's decision) and
//! `new` / `matched` (the store's answer to a save).

use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::sync::{Mutex, OnceLock};

use tass_symbolic::api::ExprFactory;

static DUMP: OnceLock<Option<Mutex<File>>> = OnceLock::new();

fn dump() -> Option<&'static Mutex<File>> {
    DUMP.get_or_init(|| {
        let path = std::env::var_os("TASS_DUMP_SAVED")?;
        File::create(path).ok().map(Mutex::new)
    })
    .as_ref()
}

/// Whether `TASS_DUMP_SAVED` is set (and its file could be created).
pub(crate) fn enabled() -> bool {
    dump().is_some()
}

/// Writes one line `tag region hash`.
pub(crate) fn record(tag: &str, region: usize, form_hash: u64) {
    if let Some(file) = dump() {
        let line = format!("{tag} {region} {form_hash:016x}\n");
        let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
        // A diagnostic: a failed write loses a line, nothing else.
        let _ = file.write_all(line.as_bytes());
    }
}

/// A hash of `debug` (a state's `Debug` text, whose expressions print as
/// `#N`, their numbers in `factory`) with every `#N` replaced by the
/// expression printed from its structure; the state's cached hash (a hash of
/// expression numbers) is left out.
pub(crate) fn stable_hash(debug: &str, factory: &ExprFactory) -> u64 {
    let debug = match debug.rfind(", hash: ") {
        Some(at) => &debug[..at],
        None => debug,
    };
    let mut out = String::with_capacity(debug.len() * 2);
    let mut rest = debug;
    while let Some(at) = rest.find('#') {
        out.push_str(&rest[..at]);
        let digits: String = rest[at + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        match digits
            .parse::<u32>()
            .ok()
            .and_then(|id| factory.expr_with_id(id))
        {
            Some(e) => {
                out.push('{');
                out.push_str(&factory.pretty(e));
                out.push(':');
                out.push_str(&format!("{:?}", factory.type_of(e)));
                out.push('}');
            }
            None => {
                out.push('#');
                out.push_str(&digits);
            }
        }
        rest = &rest[at + 1 + digits.len()..];
    }
    out.push_str(rest);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    out.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::stable_hash;
    use tass_symbolic::api::{ExprFactory, Type};

    /// One expression gets different numbers in two factories (made in
    /// another order) but the same stable hash; different ones differ.
    #[test]
    fn the_hash_depends_on_the_expression_not_its_number() {
        let first = ExprFactory::new();
        let x = first.symbol("X", Type::Int);
        let sum_first = first.add(x, first.int(7));
        let second = ExprFactory::new();
        let _padding = second.int(12345);
        let y = second.symbol("Y", Type::Int);
        let x2 = second.symbol("X", Type::Int);
        let sum_second = second.add(x2, second.int(7));
        assert_ne!(sum_first.id(), sum_second.id());
        let text = |e: tass_symbolic::api::Expr| format!("State {{ pc: #{} }}", e.id());
        assert_eq!(
            stable_hash(&text(sum_first), &first),
            stable_hash(&text(sum_second), &second)
        );
        assert_ne!(
            stable_hash(&text(sum_second), &second),
            stable_hash(&text(y), &second)
        );
    }
}
