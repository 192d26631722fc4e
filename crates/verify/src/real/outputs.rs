//! Output values: printed exactly for the report, and compared between the
//! specification and the implementation, element by element for arrays.

use std::collections::HashSet;

use tass_prove::api::Validity;
use tass_simplify::api::Simplifier;
use tass_state::api::{State, Value};
use tass_symbolic::api::{Expr, ExprFactory, ExprView, Type};

use super::witness::{prover_witness, witness_values};
use super::RealEngine;
use crate::engine::{Equality, OutputMismatch, OutputPair};
use tass_semantics::api::is_internal_symbol;

/// What two outputs are compared under: the assumption that both paths were
/// taken, and a simplifier for it.
#[derive(Clone, Copy)]
pub(super) struct Assumed<'s> {
    pub(super) simplifier: &'s Simplifier,
    pub(super) assumption: Expr,
}

impl RealEngine {
    /// The outputs of `state`, printed ([`crate::engine::Engine::output_values`]).
    pub(super) fn printed_outputs(&mut self, state: &State) -> Vec<(String, String)> {
        let pc = self.engine.path_condition(state);
        let simplifier = self.simplifiers.simplifier(pc);
        let mut out = Vec::new();
        for (name, value) in self.engine.outputs(state) {
            match self.data(&value) {
                Some(e) => out.extend(self.flatten_output(&simplifier, name, e, 0)),
                None => out.push((name, self.engine.pretty_value(&value))),
            }
        }
        out
    }

    /// Compares one output of the two programs under `assumption`
    /// ([`crate::engine::Engine::compare_output`]).
    pub(super) fn compare_output_values(
        &mut self,
        assumption: &Value,
        OutputPair { name, spec, imp }: OutputPair<'_, Value>,
    ) -> Option<OutputMismatch<Value>> {
        let assumption = self.data(assumption).unwrap_or_else(|| self.factory.tt());
        let simplifier = self.simplifiers.simplifier(assumption);
        if simplifier.is_contradictory() {
            // The two paths cannot both be taken: nothing to compare.
            return None;
        }
        match (self.data(spec), self.data(imp)) {
            (Some(a), Some(b)) => {
                let under = Assumed {
                    simplifier: &simplifier,
                    assumption,
                };
                self.compare_data(&under, name.to_string(), a, b)
            }
            _ if spec == imp => None,
            // Outputs that are not data (structs, pointers): equal only if identical.
            _ => Some(OutputMismatch {
                element: name.to_string(),
                spec: spec.clone(),
                imp: imp.clone(),
                answer: Equality::Unknown,
            }),
        }
    }

    /// `name = value` for a scalar, or one entry per element (`name[i]...`) for
    /// an array of concrete extent (`depth` deep in the output, at most 8),
    /// printed exactly (`5`, `115/2`, `true`).
    pub(super) fn flatten_output(
        &self,
        simplifier: &Simplifier,
        name: String,
        e: Expr,
        depth: usize,
    ) -> Vec<(String, String)> {
        let f = &self.factory;
        let e = simplifier.simplify(e);
        if depth < 8 {
            if let Some(elements) = self.elements(simplifier, e) {
                return elements
                    .into_iter()
                    .enumerate()
                    .flat_map(|(k, element)| {
                        self.flatten_output(simplifier, format!("{name}[{k}]"), element, depth + 1)
                    })
                    .collect();
            }
        }
        let text = if let Some(i) = f.as_concrete_int(e) {
            i.to_string()
        } else if let Some(r) = f.as_concrete_rational(e) {
            r.to_string()
        } else if let Some(b) = f.as_bool(e) {
            b.to_string()
        } else {
            f.pretty(e)
        };
        vec![(name, text)]
    }

    /// Decides `assumption => a == b` for two data values of one type.
    pub(super) fn decide_equal(&self, assumption: Expr, a: Expr, b: Expr) -> Option<Equality> {
        if a == b {
            return None;
        }
        let f = &self.factory;
        if f.type_of(a) != f.type_of(b) {
            return Some(Equality::Different(None));
        }
        let claim = f.eq(a, b);
        let answer = self.prover.valid_with_model(assumption, claim);
        match answer.validity {
            Validity::Yes => None,
            // The prover may have given `sqrt` (say) a meaning the real one lacks;
            // at herbrand/ieee level a difference evaluated in IEEE doubles is real.
            Validity::No if self.leans_on_stand_in(&[assumption, a, b]) => {
                Some(confirmed_difference(f, assumption, (a, b)))
            }
            Validity::No => Some(Equality::Different(
                answer.model.as_ref().map(prover_witness),
            )),
            Validity::Maybe => Some(confirmed_difference(f, assumption, (a, b))),
        }
    }

    /// The elements of a data array whose extent is concrete under the assumption
    /// (`None` otherwise).
    pub(super) fn elements(&self, simplifier: &Simplifier, a: Expr) -> Option<Vec<Expr>> {
        let f = &self.factory;
        let Type::Array(_, _) = f.type_of(a) else {
            return None;
        };
        let extent = simplifier.simplify(f.array_extent(a)?);
        let n = f.as_concrete_int(extent)?;
        let n: usize = n.try_into().ok().filter(|&n: &usize| n <= 1 << 16)?;
        // A conversion between array types (e.g. extent `N` to extent 4) keeps the
        // elements: read them from the converted array itself.
        let mut a = a;
        while let ExprView::Cast(inner) = f.view(a) {
            if !matches!(f.type_of(inner), Type::Array(..)) {
                break;
            }
            a = inner;
        }
        Some(
            (0..n)
                .map(|i| simplifier.simplify(f.array_read(a, f.int(i as i64))))
                .collect(),
        )
    }

    /// Compares two data values, descending into arrays of concrete extent to name
    /// the first element that differs.
    pub(super) fn compare_data(
        &self,
        under: &Assumed<'_>,
        name: String,
        a: Expr,
        b: Expr,
    ) -> Option<OutputMismatch<Value>> {
        let Assumed {
            simplifier,
            assumption,
        } = *under;
        let a = self.reads_through_casts(simplifier.simplify(a));
        let b = self.reads_through_casts(simplifier.simplify(b));
        if a == b {
            return None;
        }
        if let (Some(xs), Some(ys)) = (self.elements(simplifier, a), self.elements(simplifier, b)) {
            if xs.len() == ys.len() {
                let mut undecided = None;
                for (k, (x, y)) in xs.into_iter().zip(ys).enumerate() {
                    let element = format!("{name}[{k}]");
                    if let Some(m) = self.compare_data(under, element, x, y) {
                        if matches!(m.answer, Equality::Different(_)) {
                            return Some(m);
                        }
                        undecided.get_or_insert(m);
                    }
                }
                return undecided;
            }
        }
        self.decide_equal(assumption, a, b)
            .map(|answer| OutputMismatch {
                element: name,
                spec: Value::Data(a),
                imp: Value::Data(b),
                answer,
            })
    }

    /// Rewrites `(T[])x)[i]` (a read of an array converted to another array
    /// type, e.g. extent `N` to extent 4) to `x[i]`, which the factory then
    /// evaluates when `x` is concrete. Such conversions appear where a simplified
    /// array meets one typed with the unsimplified extent; the factory does not see
    /// through them, and the prover would answer "maybe".
    pub(super) fn reads_through_casts(&self, e: Expr) -> Expr {
        let f = &self.factory;
        let mut e = e;
        for _ in 0..4 {
            let mut map = hashbrown::HashMap::new();
            let mut seen = HashSet::new();
            let mut todo = vec![e];
            while let Some(x) = todo.pop() {
                if !seen.insert(x) {
                    continue;
                }
                if let ExprView::ArrayRead(array, index) = f.view(x) {
                    if let ExprView::Cast(inner) = f.view(array) {
                        if matches!(f.type_of(inner), Type::Array(..)) {
                            map.insert(x, f.array_read(inner, index));
                        }
                    }
                }
                todo.extend(f.children(x));
            }
            if map.is_empty() {
                break;
            }
            e = f.substitute(e, &map);
        }
        e
    }
}

/// `Different` with values at which the output equality `a == b` is false in IEEE
/// double arithmetic, if a search finds some (only floating operators of the
/// herbrand/ieee levels are interpreted), else `Unknown`.
fn confirmed_difference(f: &ExprFactory, assumption: Expr, (a, b): (Expr, Expr)) -> Equality {
    let claim = tass_semantics::api::float_equal(f, a, b);
    match tass_semantics::api::confirm_in_doubles(f, assumption, claim) {
        Some(values) => Equality::Different(Some(witness_values(
            values
                .into_iter()
                .filter(|(name, _)| !is_internal_symbol(name))
                .collect(),
        ))),
        None => Equality::Unknown,
    }
}
