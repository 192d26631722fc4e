//! Set-based state matching for the real engine (`--match set|subsume`): the
//! control part of a state comes from the state crate
//! (`Engine::control_and_data`); here the prover decides whether the data
//! parts of two states with the same control part stand for the same (or an
//! included) set of concrete valuations.
//!
//! The set a state stands for is `{ d(X) | pc(X) }`: its symbolic values `d`
//! over the symbols `X` (inputs still live, fresh values) where its path
//! condition holds. `new ⊆ saved` is the validity of
//! `pc_new(X) => exists Y. pc_saved(Y) && d_new(X) == d_saved(Y)`, the
//! saved state's symbols renamed to bound variables `Y`. The cheap test comes
//! first: equal values and `pc_new => pc_saved`. Anything the prover leaves
//! open, and any state whose symbols cannot be quantified (booleans, arrays,
//! uninterpreted functions), is "not included": no match, never a wrong one.

use std::collections::HashMap;
use std::sync::Arc;

use tass_prove::api::Validity;
use tass_state::api::{ControlData, State};
use tass_symbolic::api::{Expr, Type};

use super::RealEngine;
use crate::engine::DataRelation;

/// What the matching has computed so far, per state and per question.
#[derive(Default)]
pub(super) struct MatchMemo {
    parts: HashMap<State, Option<Arc<ControlData>>>,
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
                self.prove_included(&da, &db)
            }
            _ => false,
        };
        self.matching.included.insert(key, answer);
        answer
    }

    /// Proves `{ d_a | pc_a } ⊆ { d_b | pc_b }`; `false` when refuted or undecided.
    fn prove_included(&self, a: &ControlData, b: &ControlData) -> bool {
        let f = Arc::clone(&self.factory);
        if a.data == b.data && self.prover.valid(a.pc, b.pc) == Validity::Yes {
            return true;
        }
        // The saved state's symbols, renamed to bound variables.
        let mut symbols: Vec<Expr> = Vec::new();
        for &e in b.data.iter().chain(std::iter::once(&b.pc)) {
            for s in f.free_symbols(e) {
                if !symbols.contains(&s) {
                    symbols.push(s);
                }
            }
        }
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
