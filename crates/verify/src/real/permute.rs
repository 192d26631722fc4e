//! `compare --symmetry`: permuting the elements of input arrays in symbolic
//! values, for deciding the symmetry hypotheses (`symmetry.rs`).

use tass_state::api::Value;
use tass_symbolic::api::{Expr, Type};

use super::RealEngine;
use crate::engine::Engine;

impl RealEngine {
    /// The input array symbols named `arrays` occurring in `values`.
    fn symmetric_symbols(&self, arrays: &[String], values: &[Value]) -> Vec<(String, Expr)> {
        let f = &self.factory;
        let mut found = Vec::new();
        for e in values.iter().filter_map(|v| self.data(v)) {
            for s in f.free_symbols(e) {
                let Some(name) = f.symbol_name(s) else {
                    continue;
                };
                if arrays.iter().any(|a| **a == *name) && !found.iter().any(|(_, x)| *x == s) {
                    found.push((name.to_string(), s));
                }
            }
        }
        found
    }

    /// The concrete extent of the array symbol `symbol` (a constant, or an input
    /// fixed with `-i`).
    fn concrete_extent(&self, name: &str, symbol: Expr) -> Result<usize, String> {
        let f = &self.factory;
        let Type::Array(_, Some(extent)) = f.type_of(symbol) else {
            return Err(format!("`{name}` is not an array of known length"));
        };
        if let Some(n) = f.as_concrete_int(extent) {
            return usize::try_from(n).map_err(|_| format!("`{name}` has a negative length"));
        }
        let fixed = f
            .symbol_name(extent)
            .and_then(|x| self.fixed.iter().find(|(k, _)| **k == *x))
            .and_then(|(_, v)| v.trim().parse::<usize>().ok());
        fixed.ok_or_else(|| {
            format!("the length of `{name}` is not a constant (fix it with `-i NAME=VALUE`)")
        })
    }

    pub(super) fn symmetric_extent_of(
        &mut self,
        arrays: &[String],
        values: &[Value],
    ) -> Result<usize, String> {
        let inputs = self.input_names();
        if let Some(unknown) = arrays.iter().find(|a| !inputs.contains(a)) {
            return Err(format!("`{unknown}` is not an input of the specification"));
        }
        let symbols = self.symmetric_symbols(arrays, values);
        if let Some(absent) = arrays
            .iter()
            .find(|a| !symbols.iter().any(|(n, _)| n == *a))
        {
            return Err(format!(
                "`{absent}` occurs in no output or path condition of the specification"
            ));
        }
        let mut extent = None;
        for (name, symbol) in &symbols {
            let n = self.concrete_extent(name, *symbol)?;
            if extent.is_some_and(|m| m != n) {
                return Err(format!(
                    "the arrays {} do not all have the same length",
                    arrays.join(", ")
                ));
            }
            extent = Some(n);
        }
        extent.ok_or_else(|| "no array named".to_string())
    }

    /// `value` with element `k` of each array of `arrays` replaced by element
    /// `permutation[k]` (a write of every position over the original array).
    pub(super) fn permuted_value(
        &mut self,
        value: &Value,
        arrays: &[String],
        permutation: &[usize],
    ) -> Result<Value, String> {
        let Some(e) = self.data(value) else {
            return Err("a value that is not data (a pointer or struct)".into());
        };
        let f = &self.factory;
        let mut pairs = Vec::new();
        for (_, symbol) in self.symmetric_symbols(arrays, std::slice::from_ref(value)) {
            let mut image = symbol;
            for (k, &from) in permutation.iter().enumerate() {
                let element = f.array_read(symbol, f.int(from));
                image = f.array_write(image, f.int(k), element);
            }
            pairs.push((symbol, image));
        }
        Ok(Value::Data(f.substitute_pairs(e, &pairs)))
    }

    pub(super) fn conditions_equivalent(&mut self, a: &Value, b: &Value) -> bool {
        let (Some(a), Some(b)) = (self.data(a), self.data(b)) else {
            return a == b;
        };
        let f = &self.factory;
        a == b
            || (self.prover.is_unsat(f.and(a, f.not(b)))
                && self.prover.is_unsat(f.and(b, f.not(a))))
    }
}
