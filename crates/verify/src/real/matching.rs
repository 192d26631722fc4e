//! Set-based state matching for the real engine (`--match set|subsume`): the
//! control part of a state comes from the state crate
//! (`Engine::control_and_data`); here the prover decides whether the data
//! parts of two states with the same control part stand for the same (or an
//! included) set of concrete valuations.
//!
//! The set a state stands for is `{ d(X) | pc(X) }`: its symbolic values `d`
//! over the symbols `X` (inputs still live, fresh values) where its path
//! condition holds. When every symbol is an integer whose range under the
//! path condition is finite and the box of their values is small (at most
//! [`MAX_EXPLICIT_POINTS`]), the set is computed explicitly, as the paper
//! does: every point of the box where the path condition is true, evaluated
//! exactly; then inclusion is decided by comparing sets. Otherwise
//! `new ⊆ saved` is the validity of
//! `pc_new(X) => exists Y. pc_saved(Y) && d_new(X) == d_saved(Y)`, the
//! saved state's symbols renamed to bound variables `Y`. The cheap test comes
//! first: equal values and `pc_new => pc_saved`. Anything the prover leaves
//! open, and any state whose symbols cannot be quantified (booleans, arrays,
//! uninterpreted functions), is "not included": no match, never a wrong one.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

use tass_prove::api::Validity;
use tass_state::api::{ControlData, State};
use tass_symbolic::api::{Assignment, Expr, ExprFactory, Type, Value};

use super::RealEngine;
use crate::engine::DataRelation;

/// Most points of the box of a state's symbols enumerated to build its data
/// set explicitly; beyond, the prover decides.
const MAX_EXPLICIT_POINTS: u64 = 1 << 17;

/// A data set given by its elements: the slots' values, one vector each.
type ExplicitSet = HashSet<Vec<Value>>;

/// What the matching has computed so far, per state and per question.
#[derive(Default)]
pub(super) struct MatchMemo {
    parts: HashMap<State, Option<Arc<ControlData>>>,
    explicit: HashMap<State, Option<Arc<ExplicitSet>>>,
    included: HashMap<(State, State), bool>,
}

impl RealEngine {
    fn control_data(&mut self, state: &State) -> Option<Arc<ControlData>> {
        if let Some(cd) = self.matching.parts.get(state) {
            return cd.clone();
        }
        let cd = self.engine.control_and_data(state).map(Arc::new);
        self.matching.parts.insert(state.clone(), cd.clone());
        cd
    }

    /// The control and data parts of `state` (`ltl/`: the backward pruning
    /// of a lasso compares the data of two passes of its cycle).
    pub(crate) fn ltl_control_data(&mut self, state: &State) -> Option<Arc<ControlData>> {
        self.control_data(state)
    }

    /// The control part of `state`, if it can be matched by sets.
    pub(super) fn control_key(&mut self, state: &State) -> Option<State> {
        self.control_data(state).map(|cd| cd.control.clone())
    }

    /// Whether `new`'s data valuations are those of (or among those of) `saved`.
    pub(super) fn data_sets_related(
        &mut self,
        new: &State,
        saved: &State,
        relation: DataRelation,
    ) -> bool {
        let included = self.data_included(new, saved);
        match relation {
            DataRelation::Included => included,
            DataRelation::Equal => included && self.data_included(saved, new),
        }
    }

    fn data_included(&mut self, a: &State, b: &State) -> bool {
        let key = (a.clone(), b.clone());
        if let Some(&known) = self.matching.included.get(&key) {
            return known;
        }
        let answer = match (self.control_data(a), self.control_data(b)) {
            (Some(da), Some(db)) if da.control == db.control && da.data.len() == db.data.len() => {
                match (self.explicit_set(a, &da), self.explicit_set(b, &db)) {
                    (Some(sa), Some(sb)) => sa.is_subset(&sb),
                    _ => self.prove_included(&da, &db),
                }
            }
            _ => false,
        };
        self.matching.included.insert(key, answer);
        answer
    }

    /// The data set of `state` by enumeration, when its symbols are integers
    /// in a small box (memoized).
    fn explicit_set(&mut self, state: &State, cd: &ControlData) -> Option<Arc<ExplicitSet>> {
        if let Some(known) = self.matching.explicit.get(state) {
            return known.clone();
        }
        let set = self.enumerate(cd).map(Arc::new);
        self.matching.explicit.insert(state.clone(), set.clone());
        set
    }

    fn enumerate(&self, cd: &ControlData) -> Option<ExplicitSet> {
        let f = Arc::clone(&self.factory);
        let symbols = symbols_of(&f, cd.data.iter().chain(std::iter::once(&cd.pc)));
        if symbols
            .iter()
            .any(|&s| !f.is_symbol(s) || f.type_of(s) != Type::Int)
        {
            return None;
        }
        let simplifier = self.simplifiers.simplifier(cd.pc);
        if simplifier.is_contradictory() {
            return Some(ExplicitSet::new());
        }
        let mut ranges = Vec::new();
        let mut points: u64 = 1;
        for &s in &symbols {
            let interval = simplifier.bounds(s);
            let lo = integer_end(interval.lower.as_ref()?, End::Lower)?;
            let hi = integer_end(interval.upper.as_ref()?, End::Upper)?;
            if hi < lo {
                return Some(ExplicitSet::new());
            }
            points = points.checked_mul(u64::try_from(hi - lo + 1).ok()?)?;
            if points > MAX_EXPLICIT_POINTS {
                return None;
            }
            ranges.push((s, lo, hi));
        }
        let mut set = ExplicitSet::new();
        let mut current: Vec<i64> = ranges.iter().map(|r| r.1).collect();
        loop {
            let mut assignment = Assignment::new();
            for (&(s, _, _), &v) in ranges.iter().zip(&current) {
                assignment.set(s, Value::Int(BigInt::from(v)));
            }
            if f.eval_bool(cd.pc, &assignment).ok()? {
                let values: Option<Vec<Value>> = cd
                    .data
                    .iter()
                    .map(|&d| f.eval(d, &assignment).ok())
                    .collect();
                set.insert(values?);
            }
            // The next point of the box, odometer-wise.
            let mut k = 0;
            loop {
                if k == ranges.len() {
                    return Some(set);
                }
                if current[k] < ranges[k].2 {
                    current[k] += 1;
                    break;
                }
                current[k] = ranges[k].1;
                k += 1;
            }
        }
    }

    /// Proves `{ d_a | pc_a } ⊆ { d_b | pc_b }`; `false` when refuted or undecided.
    fn prove_included(&self, a: &ControlData, b: &ControlData) -> bool {
        let f = Arc::clone(&self.factory);
        if a.data == b.data && self.prover.valid(a.pc, b.pc) == Validity::Yes {
            return true;
        }
        // The saved state's symbols, renamed to bound variables.
        let symbols = symbols_of(&f, b.data.iter().chain(std::iter::once(&b.pc)));
        if symbols
            .iter()
            .any(|&s| !f.is_symbol(s) || !matches!(f.type_of(s), Type::Int | Type::Real))
        {
            return false;
        }
        let renaming: Vec<(Expr, Expr)> = symbols
            .iter()
            .map(|&s| (s, f.fresh_symbol("__tass_bound", f.type_of(s))))
            .collect();
        let mut body = f.substitute_pairs(b.pc, &renaming);
        for (&x, &y) in a.data.iter().zip(&b.data) {
            if !matches!(f.type_of(x), Type::Int | Type::Real) {
                return false;
            }
            body = f.and(body, f.eq(x, f.substitute_pairs(y, &renaming)));
        }
        let mut claim = body;
        for &(_, bound) in &renaming {
            claim = f.exists(bound, claim);
        }
        self.prover.valid(a.pc, claim) == Validity::Yes
    }
}

/// The free symbols of `exprs`, each once, in order of appearance.
fn symbols_of<'e>(f: &ExprFactory, exprs: impl Iterator<Item = &'e Expr>) -> Vec<Expr> {
    let mut symbols: Vec<Expr> = Vec::new();
    for &e in exprs {
        for s in f.free_symbols(e) {
            if !symbols.contains(&s) {
                symbols.push(s);
            }
        }
    }
    symbols
}

/// Which end of an interval.
#[derive(Clone, Copy)]
enum End {
    Lower,
    Upper,
}

/// The smallest (lower end) or largest (upper end) integer inside a bound.
fn integer_end(bound: &tass_simplify::api::Bound, end: End) -> Option<i64> {
    let v: &BigRational = &bound.value;
    let integer = match end {
        End::Lower => {
            let c = v.ceil();
            if bound.strict && c == *v {
                c.to_integer() + 1
            } else {
                c.to_integer()
            }
        }
        End::Upper => {
            let c = v.floor();
            if bound.strict && c == *v {
                c.to_integer() - 1
            } else {
                c.to_integer()
            }
        }
    };
    integer.to_i64()
}
